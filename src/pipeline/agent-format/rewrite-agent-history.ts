/** The return trip of a text format: the agent's text calls and wrapped results become a tool transcript. */
// Assistant turns whose text holds calls in the agent's syntax become structured calls again, and the
// results the agent sends back in the syntax's result wrapper become `tool` messages tied to them. A native
// upstream then gets a well-formed tool transcript, and a prompted one its own family's history (the
// prompted lane renders it).
import type { AgentResultSegment, AgentTextSyntax } from '../../core/agent-text-syntax.js';
import { assertNever } from '../../core/assert-never.js';
import type { AssistantMessage, Message, ToolCallPart, ToolMessage, UserMessage } from '../../core/message.js';
import type { ToolDefinition } from '../../core/tool-definition.js';
import { trimCallSeparators } from './call-text-layout.js';

type Segment = { type: 'text'; text: string } | { type: 'reasoning'; text: string } | { type: 'call'; name: string; arguments: string };
type ResultSegment = Extract<AgentResultSegment, { type: 'result' }>;

/**
 * Parsed calls get ids from their turn and position (`call_agent_<message>_<call>`), so the same history
 * gives the same ids on every request and the results pair up with them.
 */
export function agentCallId(messageIndex: number, position: number): string {
  return `call_agent_${messageIndex}_${position}`;
}

export function rewriteAgentHistory(messages: readonly Message[], syntax: AgentTextSyntax, tools: ToolDefinition[]): Message[] {
  const rewritten: Message[] = [];
  const structuredIds = structuredCallIds(messages);
  let index = 0;
  while (index < messages.length) {
    const message = messages[index] as Message;
    const segments = message.role === 'assistant' ? parseAssistantText(message, syntax, tools) : undefined;
    if (message.role !== 'assistant' || segments === undefined) {
      rewritten.push(message);
      index++;
      continue;
    }
    const callNames = segments.flatMap((segment) => (segment.type === 'call' ? [segment.name] : []));
    const ownIds = new Set(message.content.flatMap((part) => (part.type === 'tool-call' ? [part.id] : [])));
    const collected = collectResults(messages, index + 1, callNames.length, { syntax, structuredIds, ownIds });
    const answers = pairResults(callNames, collected.results);
    rewritten.push(rebuildAssistant(message, segments, index, answers, syntax));
    answers.forEach((result, position) => {
      if (result) rewritten.push(toolMessage(result, agentCallId(index, position), callNames[position]));
    });
    // The results of the turn's structured calls follow those of its text calls, as the calls do in the turn.
    rewritten.push(...collected.passedOver);
    // The whitespace that stood around the removed result wrappers is not the agent's text.
    const leftover = collected.leftoverText.trim();
    if (leftover !== '') rewritten.push({ role: 'user', content: [{ type: 'text', text: leftover }] });
    index = collected.next;
  }
  return rewritten;
}

/** The text of an assistant turn as segments, or undefined when it holds no readable call (it stays as it is). */
function parseAssistantText(message: AssistantMessage, syntax: AgentTextSyntax, tools: ToolDefinition[]): Segment[] | undefined {
  const text = message.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('');
  if (text === '' || tools.length === 0) return undefined;
  const parser = syntax.createParser(tools);
  const segments: Segment[] = [];
  for (const event of [...parser.push(text), ...parser.finish()]) {
    switch (event.type) {
      case 'text':
      case 'reasoning': {
        const last = segments.at(-1);
        if (last?.type === event.type) last.text += event.text;
        else segments.push({ type: event.type, text: event.text });
        break;
      }
      case 'tool-call':
        segments.push({ type: 'call', name: event.name, arguments: event.arguments });
        break;
      // How the text was read (an orphan </think> removed) changes nothing in a history turn.
      case 'warning':
        break;
      // Markup the parser could not read back: leave the turn untouched rather than lose part of it.
      case 'tool-call-rejected':
      case 'tool-call-unparsed':
        return undefined;
      default:
        assertNever(event, 'parsed event');
    }
  }
  return segments.some((segment) => segment.type === 'call') ? segments : undefined;
}

/**
 * How the messages after a turn's text calls are read for their results. `ownIds`: the turn's own
 * structured calls, whose tool messages come first in a turn that has both kinds.
 */
type ResultReading = { syntax: AgentTextSyntax; structuredIds: ReadonlySet<string>; ownIds: ReadonlySet<string> };

/**
 * Results in the user turns (or stray tool messages) right after the calls, in order, at most one per call.
 * Tool messages answering the turn's own structured calls are passed over (and kept, in `passedOver`): the
 * text calls' results come after them.
 */
function collectResults(messages: readonly Message[], from: number, callCount: number, reading: ResultReading) {
  const { syntax, structuredIds, ownIds } = reading;
  const results: ResultSegment[] = [];
  const passedOver: ToolMessage[] = [];
  let leftoverText = '';
  let next = from;
  while (results.length < callCount && next < messages.length) {
    const message = messages[next] as Message;
    if (message.role === 'tool' && message.content.every((part) => ownIds.has(part.toolCallId))) {
      passedOver.push(message);
      next++;
      continue;
    }
    if (message.role === 'tool') {
      const stray = strayResults(message, structuredIds);
      if (stray === undefined || results.length + stray.length > callCount) break;
      results.push(...stray);
      next++;
      continue;
    }
    const text = message.role === 'user' ? textOnly(message) : undefined;
    if (text === undefined) break;
    const segments = syntax.splitResults(text);
    if (!segments.some((segment) => segment.type === 'result')) break;
    for (const segment of segments) {
      if (segment.type === 'result' && results.length < callCount) results.push(segment);
      else leftoverText += segment.type === 'result' ? segment.raw : segment.text;
    }
    next++;
  }
  // Read past the turn's structured results to no text result: they stay where they were, for the loop.
  if (results.length === 0) return { results, passedOver: [], leftoverText, next: from };
  return { results, passedOver, leftoverText, next };
}

/** The ids of the structured calls in the history: tool messages answering them are the client's own. */
function structuredCallIds(messages: readonly Message[]): ReadonlySet<string> {
  const ids = new Set<string>();
  for (const message of messages)
    if (message.role === 'assistant') for (const part of message.content) if (part.type === 'tool-call') ids.add(part.id);
  return ids;
}

/**
 * An agent that read the calls as text may still send their results as tool messages (Chat's role "tool",
 * a Messages tool_result block) with ids it made up. Handed on as they were, they would answer no call,
 * which a native upstream refuses: when no id answers a structured call, they are results for the text
 * calls. Undefined when the message answers a structured call.
 */
function strayResults(message: ToolMessage, structuredIds: ReadonlySet<string>): ResultSegment[] | undefined {
  if (message.content.some((part) => structuredIds.has(part.toolCallId))) return undefined;
  return message.content.map((part) => {
    // Never left over (only as many are taken as calls wait), so there is no wrapper text to keep.
    const result: ResultSegment = { type: 'result', output: part.output, raw: '' };
    if (part.toolName !== undefined) result.name = part.toolName;
    if (part.isError === true) result.isError = true;
    return result;
  });
}

/**
 * The result each call gets (by call position), or undefined. Results come back in the order the tools
 * finished, so one that names its tool (Harmony's `functions.NAME`, a `{"name", "output"}` object) answers
 * the first call to that tool still unanswered; the others answer the remaining calls in order.
 */
function pairResults(callNames: readonly string[], results: readonly ResultSegment[]): (ResultSegment | undefined)[] {
  const answers: (ResultSegment | undefined)[] = callNames.map(() => undefined);
  const unnamed: ResultSegment[] = [];
  for (const result of results) {
    const position = callNames.findIndex((name, at) => name === result.name && answers[at] === undefined);
    if (position >= 0) answers[position] = result;
    else unnamed.push(result);
  }
  for (const result of unnamed) {
    const position = answers.indexOf(undefined);
    if (position >= 0) answers[position] = result;
  }
  return answers;
}

/** A user turn's text when it is only text (a turn with images is the user's, not a tool result). */
function textOnly(message: UserMessage): string | undefined {
  if (!message.content.every((part) => part.type === 'text')) return undefined;
  return message.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
}

/**
 * Answered calls become structured; calls without a result stay text, so no call is left dangling. Text on
 * either side of a structured call keeps a line break between its pieces.
 */
function rebuildAssistant(
  message: AssistantMessage,
  segments: Segment[],
  messageIndex: number,
  answers: readonly (ResultSegment | undefined)[],
  syntax: AgentTextSyntax,
): AssistantMessage {
  const content: AssistantMessage['content'] = message.content.filter(
    (part) => part.type === 'reasoning' || part.type === 'redacted-reasoning',
  );
  const calls: ToolCallPart[] = [];
  const pieces: string[] = [''];
  let position = 0;
  const structuredAt = (at: number) => segments[at]?.type === 'call' && answers[callPosition(segments, at)] !== undefined;
  segments.forEach((segment, at) => {
    switch (segment.type) {
      case 'reasoning':
        content.push({ type: 'reasoning', text: segment.text });
        break;
      case 'text':
        pieces[pieces.length - 1] += trimCallSeparators(segment.text, structuredAt(at - 1), structuredAt(at + 1));
        break;
      case 'call':
        if (answers[position] !== undefined) {
          calls.push({ type: 'tool-call', id: agentCallId(messageIndex, position), name: segment.name, arguments: segment.arguments });
          pieces.push('');
        } else pieces[pieces.length - 1] += syntax.renderCall(segment);
        position++;
        break;
      default:
        assertNever(segment, 'segment');
    }
  });
  const text = pieces.filter((piece) => piece !== '').join('\n');
  if (text !== '') content.push({ type: 'text', text });
  content.push(...calls, ...message.content.filter((part): part is ToolCallPart => part.type === 'tool-call'));
  return { role: 'assistant', content };
}

/** The call's position among the turn's calls. */
function callPosition(segments: Segment[], at: number): number {
  return segments.slice(0, at).filter((segment) => segment.type === 'call').length;
}

function toolMessage(result: ResultSegment, toolCallId: string, toolName: string | undefined): ToolMessage {
  const part: ToolMessage['content'][number] = { type: 'tool-result', toolCallId, output: result.output };
  if (toolName !== undefined) part.toolName = toolName;
  if (result.isError === true) part.isError = true;
  return { role: 'tool', content: [part] };
}
