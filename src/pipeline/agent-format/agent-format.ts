/** The agent formats a request can ask for (`agent_format`), and how one was chosen. */
import type { AgentTextSyntax } from '../../core/agent-text-syntax.js';
import { assertNever } from '../../core/assert-never.js';
import { chatRequestFrom, type ChatRequest } from '../../core/chat-request.js';
import type { StreamEvent } from '../../core/stream-event.js';
import type { DiagnosticsCollector } from '../diagnostics-collector.js';
import { renderCallsAsText } from './render-calls-as-text.js';
import { rewriteAgentHistory } from './rewrite-agent-history.js';

/**
 * - `structured` (`openai`, `codex`): calls are `tool_calls`, content has no markup.
 * - `passthrough`: the upstream's text untouched (markup included) and the structured calls too, for debugging.
 * - `text`: calls are written into content in the syntax's form, and are not also `tool_calls`.
 */
export type AgentFormat =
  | { type: 'structured'; name: 'openai' | 'codex' }
  | { type: 'passthrough'; name: 'passthrough' }
  | { type: 'text'; name: string; syntax: AgentTextSyntax };

/** Where the choice came from, first match wins: body field, X-Agent-Format header, a config rule, the default. */
export type AgentFormatSource = 'field' | 'header' | 'rule' | 'default';

export type AgentFormatSelection = { format: AgentFormat; source: AgentFormatSource };

export const structuredFormatNames = ['openai', 'codex'] as const;

/** What a route hands over: the body fields (when its API has them) and the request headers. */
export type AgentFormatRequest = {
  field?: unknown;
  toolCallTags?: unknown;
  headers: Readonly<Record<string, string | string[] | undefined>>;
};

/** The response header value, e.g. `qwen3; source=field`. */
export function agentFormatHeader(selection: AgentFormatSelection): string {
  return `${selection.format.name}; source=${selection.source}`;
}

/** Applies a request's agent format to the pipeline: its history on the way in, its events on the way out. */
export function applyAgentFormatToRequest(request: ChatRequest, format: AgentFormat): ChatRequest {
  switch (format.type) {
    case 'structured':
    case 'passthrough':
      return request;
    case 'text':
      return chatRequestFrom(request, request.model, rewriteAgentHistory(request.messages, format.syntax, request.tools ?? []));
    default:
      return assertNever(format, 'agent format');
  }
}

/**
 * Structured and passthrough leave the events alone: passthrough's raw text comes from the prompted lane.
 * `diagnostics` hears of a call a text format did not write (cut off at the token limit).
 */
export function applyAgentFormatToEvents(
  events: AsyncIterable<StreamEvent>,
  format: AgentFormat,
  diagnostics?: DiagnosticsCollector,
): AsyncIterable<StreamEvent> {
  switch (format.type) {
    case 'structured':
    case 'passthrough':
      return events;
    case 'text':
      return renderCallsAsText(events, format.syntax, diagnostics);
    default:
      return assertNever(format, 'agent format');
  }
}
