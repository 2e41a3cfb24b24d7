/** Applies a request's agent format to the pipeline: its history on the way in, its events on the way out. */
import { assertNever } from '../../core/assert-never.js';
import { chatRequestFrom, type ChatRequest } from '../../core/chat-request.js';
import type { StreamEvent } from '../../core/stream-event.js';
import type { AgentFormat } from './agent-format.js';
import { renderCallsAsText } from './render-calls-as-text.js';
import { rewriteAgentHistory } from './rewrite-agent-history.js';

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

/** Structured and passthrough leave the events alone: passthrough's raw text comes from the prompted lane. */
export function applyAgentFormatToEvents(events: AsyncIterable<StreamEvent>, format: AgentFormat): AsyncIterable<StreamEvent> {
  switch (format.type) {
    case 'structured':
    case 'passthrough':
      return events;
    case 'text':
      return renderCallsAsText(events, format.syntax);
    default:
      return assertNever(format, 'agent format');
  }
}
