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
};

export function renderHistoryAsText(messages: readonly Message[], rendering: HistoryRendering): Message[] {
  const toolNames = new Map<string, string>();
  const rendered: Message[] = [];
  let results: ToolResultPart[] = [];
  const flushResults = () => {
    if (results.length === 0) return;
    rendered.push({ role: 'user', content: [{ type: 'text', text: rendering.renderResults(results) }] });
    results = [];
  };
  for (const message of messages) {
    if (message.role === 'tool') {
      // The name is not always on the result; the assistant turn that made the call knows it.
      results.push(...message.content.map((part) => (part.toolName !== undefined ? part : withName(part, toolNames.get(part.toolCallId)))));
      continue;
    }
    flushResults();
    if (message.role !== 'assistant') {
      rendered.push(message);
      continue;
    }
    for (const part of message.content) if (part.type === 'tool-call') toolNames.set(part.id, part.name);
    rendered.push(renderAssistant(message, rendering));
  }
  flushResults();
  return rendered;
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
