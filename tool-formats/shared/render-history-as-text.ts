/** Rewrites a conversation for a prompted model: tool calls and results become family-syntax text. */
// Assistant tool calls become text after the assistant's text, and tool results become user turns in
// the family's wrapper (consecutive results merged into one turn), or, for families whose template
// writes them in the model's own turn, part of that turn. Deterministic, so prompts are byte-stable.
import type { AssistantMessage, Message, TextPart, ToolCallPart, ToolResultPart } from '../../src/core/index.js';
import type { CallRenderer } from './tool-prompt.js';

export type HistoryRendering = {
  renderCall: CallRenderer;
  /** Several calls of one turn; by default one `renderCall` per line. */
  renderCalls?: (calls: readonly ToolCallPart[]) => string;
  /** The user-turn text for results given together (one or more). */
  renderResults(results: readonly ToolResultPart[]): string;
  /**
   * The id the family writes for a call (Mistral's 9 alphanumerics, Kimi's `functions.NAME:IDX`), from
   * its neutral id, its name and its position among the conversation's calls (0, 1, …). Calls and their
   * results get the same one, so the model can pair them. By default ids are written as they are.
   */
  familyCallId?: (call: { id: string; name: string }, ordinal: number) => string;
  /**
   * The template writes results inside the model's turn, right after its calls, and the model's next
   * text after them (Gemma 4, DeepSeek V3.1, Mistral). Results that an assistant message follows then
   * join the turn that made the calls, with that message's content after them. Results that end the
   * conversation stay a user turn: a last assistant message would be rendered as closed (Mistral's
   * template ends it with `</s>`) or taken as a prefill that not every server supports.
   */
  resultsInCallTurn?: boolean;
  /**
   * With `resultsInCallTurn`: the end of turn the template writes after the calls, before the results
   * (Mistral's `</s>`). The server's template ends the message only after the results and the answer,
   * so it is written between them here.
   */
  callTurnEnd?: string;
  /**
   * With `resultsInCallTurn`: what the template writes after the results, before the model's next text in
   * the same turn (DeepSeek V3.2's `\n\n</think>`, which closes the empty reasoning of a turn it does not show).
   */
  callTurnResume?: string;
  /** What joins the assistant's text and its calls; a newline unless the template glues them (Mistral's v11+). */
  textBeforeCalls?: string;
  /**
   * The template writes one call per model turn (Llama 3.1's raises "This model only supports single
   * tool-calls at once!" on more): a turn's parallel calls become consecutive assistant messages of one
   * call each, the first keeping the turn's text.
   */
  turnPerCall?: boolean;
  /**
   * The template writes each result in a turn of its own (Llama 3.1's `ipython` turns, Kimi K2's `tool`
   * turns): results given together become consecutive user turns of one result each.
   */
  turnPerResult?: boolean;
};

export function renderHistoryAsText(messages: readonly Message[], rendering: HistoryRendering): Message[] {
  const toolNames = new Map<string, string>();
  const callIds = familyCallIds(rendering);
  const rendered: Message[] = [];
  // Results waiting for the next turn (or the end): flushed by a module function, not a closure, which
  // tsx's name-keeping would patch a name onto on every request.
  let results: ToolResultPart[] = [];
  // Whether the results just flushed joined the turn that made their calls, which the answer then continues.
  let joinsCallTurn = false;
  for (const message of messages) {
    if (message.role === 'tool') {
      // The name is not always on the result; the assistant turn that made the call knows it.
      for (const part of message.content) {
        const named = part.toolName !== undefined ? part : withName(part, toolNames.get(part.toolCallId));
        results.push(callIds === undefined ? named : { ...named, toolCallId: callIds(named.toolCallId, named.toolName ?? '') });
      }
      continue;
    }
    joinsCallTurn = flushResults(results, rendered, rendering, message);
    if (results.length > 0) results = [];
    if (message.role !== 'assistant') {
      rendered.push(message);
      continue;
    }
    for (const part of message.content) if (part.type === 'tool-call') toolNames.set(part.id, part.name);
    const [assistant, ...laterCalls] = renderAssistant(callIds === undefined ? message : withFamilyCallIds(message, callIds), rendering);
    if (joinsCallTurn) {
      const caller = rendered[rendered.length - 1] as AssistantMessage;
      rendered[rendered.length - 1] = { role: 'assistant', content: [...caller.content, ...(assistant?.content ?? [])] };
      joinsCallTurn = false;
    } else if (assistant !== undefined) rendered.push(assistant);
    rendered.push(...laterCalls);
  }
  flushResults(results, rendered, rendering, undefined);
  return rendered;
}

/**
 * Renders the waiting results: inside the model's turn that made the calls when the family's template
 * puts them there and the model answers them next (`next` is an assistant turn), else as one user turn
 * (or one per result, `turnPerResult`).
 * Returns whether they joined the call turn.
 */
function flushResults(results: ToolResultPart[], rendered: Message[], rendering: HistoryRendering, next: Message | undefined): boolean {
  if (results.length === 0) return false;
  const caller = rendered.at(-1);
  if (rendering.resultsInCallTurn === true && next?.role === 'assistant' && caller?.role === 'assistant') {
    const text = rendering.renderResults(results);
    const joined: TextPart = { type: 'text', text: (rendering.callTurnEnd ?? '') + text + (rendering.callTurnResume ?? '') };
    rendered[rendered.length - 1] = { role: 'assistant', content: [...caller.content, joined] };
    return true;
  }
  const turns = rendering.turnPerResult === true ? results.map((result) => [result]) : [results];
  for (const given of turns) rendered.push({ role: 'user', content: [{ type: 'text', text: rendering.renderResults(given) }] });
  return false;
}

/** The turn with its calls written as text: one message, or with `turnPerCall` one per call. */
function renderAssistant(message: AssistantMessage, rendering: HistoryRendering): AssistantMessage[] {
  const calls = message.content.filter((part): part is ToolCallPart => part.type === 'tool-call');
  if (calls.length === 0) return [message];
  const reasoning = message.content.filter((part) => part.type === 'reasoning');
  const text = message.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('');
  const withText = (callText: string) => (text === '' ? callText : text + (rendering.textBeforeCalls ?? '\n') + callText);
  if (rendering.turnPerCall === true) {
    const [first, ...later] = calls.map((call) => rendering.renderCall(call));
    return [
      { role: 'assistant', content: [...reasoning, { type: 'text', text: withText(first ?? '') }] },
      ...later.map((callText): AssistantMessage => ({ role: 'assistant', content: [{ type: 'text', text: callText }] })),
    ];
  }
  const callText = rendering.renderCalls?.(calls) ?? calls.map((call) => rendering.renderCall(call)).join('\n');
  return [{ role: 'assistant', content: [...reasoning, { type: 'text', text: withText(callText) }] }];
}

function withName(part: ToolResultPart, toolName: string | undefined): ToolResultPart {
  return toolName === undefined ? part : { ...part, toolName };
}

/** Maps neutral call ids to the family's, once per id, numbering calls in the order they appear. */
function familyCallIds(rendering: HistoryRendering): ((id: string, name: string) => string) | undefined {
  const familyCallId = rendering.familyCallId;
  if (familyCallId === undefined) return undefined;
  const ids = new Map<string, string>();
  return (id, name) => {
    let familyId = ids.get(id);
    if (familyId === undefined) {
      familyId = familyCallId({ id, name }, ids.size);
      ids.set(id, familyId);
    }
    return familyId;
  };
}

function withFamilyCallIds(message: AssistantMessage, callIds: (id: string, name: string) => string): AssistantMessage {
  return {
    ...message,
    content: message.content.map((part) => (part.type === 'tool-call' ? { ...part, id: callIds(part.id, part.name) } : part)),
  };
}
