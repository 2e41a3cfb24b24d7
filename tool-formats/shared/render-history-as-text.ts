/** Rewrites a conversation for a prompted model: tool calls and results become family-syntax text. */
// Assistant tool calls become text after the assistant's text, and tool results become user turns in
// the family's wrapper (consecutive results merged into one turn). Deterministic, so prompts are
// byte-stable.
import type { AssistantMessage, Message, ToolCallPart, ToolResultPart } from '../../src/core/index.js';
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
};

export function renderHistoryAsText(messages: readonly Message[], rendering: HistoryRendering): Message[] {
  const toolNames = new Map<string, string>();
  const callIds = familyCallIds(rendering);
  const rendered: Message[] = [];
  // Results waiting for the next turn (or the end): flushed by a module function, not a closure, which
  // tsx's name-keeping would patch a name onto on every request.
  let results: ToolResultPart[] = [];
  for (const message of messages) {
    if (message.role === 'tool') {
      // The name is not always on the result; the assistant turn that made the call knows it.
      for (const part of message.content) {
        const named = part.toolName !== undefined ? part : withName(part, toolNames.get(part.toolCallId));
        results.push(callIds === undefined ? named : { ...named, toolCallId: callIds(named.toolCallId, named.toolName ?? '') });
      }
      continue;
    }
    results = flushResults(results, rendered, rendering);
    if (message.role !== 'assistant') {
      rendered.push(message);
      continue;
    }
    for (const part of message.content) if (part.type === 'tool-call') toolNames.set(part.id, part.name);
    rendered.push(renderAssistant(callIds === undefined ? message : withFamilyCallIds(message, callIds), rendering));
  }
  flushResults(results, rendered, rendering);
  return rendered;
}

/** Renders the waiting results as one user turn; returns the emptied list. */
function flushResults(results: ToolResultPart[], rendered: Message[], rendering: HistoryRendering): ToolResultPart[] {
  if (results.length === 0) return results;
  rendered.push({ role: 'user', content: [{ type: 'text', text: rendering.renderResults(results) }] });
  return [];
}

function renderAssistant(message: AssistantMessage, rendering: HistoryRendering): AssistantMessage {
  const calls = message.content.filter((part): part is ToolCallPart => part.type === 'tool-call');
  if (calls.length === 0) return message;
  const reasoning = message.content.filter((part) => part.type === 'reasoning');
  const text = message.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('');
  const callText = rendering.renderCalls?.(calls) ?? calls.map((call) => rendering.renderCall(call)).join('\n');
  return { role: 'assistant', content: [...reasoning, { type: 'text', text: text === '' ? callText : `${text}\n${callText}` }] };
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
