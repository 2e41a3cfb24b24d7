/**
 * The prompted lane's way back, in one place: the family parser over the upstream's text (also read for a
 * reasoning block the template opened when there are no tools), the agent format, then the finalize stage:
 * the prompted lane's reply stages in src/pipeline/stages.ts.
 * Chat replies and the inspector's parse route both run it, so what the inspector shows is what a reply gives.
 */
import type { ChatRequest } from '../core/chat-request.js';
import type { SecretRedactor } from '../core/secret-redactor.js';
import type { StreamEvent } from '../core/stream-event.js';
import type { ToolDefinition } from '../core/tool-definition.js';
import type { ToolFormat } from '../core/tool-format.js';
import type { Warning } from '../core/warning.js';
import type { AgentFormat } from './agent-format/agent-format.js';
import type { DiagnosticsCollector } from './diagnostics-collector.js';
import { replyStartsInReasoning } from './reply-starts-in-reasoning.js';
import type { ResponseFormatOptions } from './check-response-format.js';
import { applyReplyStages, promptedLane, type ReplyPlan } from './stages.js';
import type { RandomHexPool } from '../core/random-hex-pool.js';

export type PromptedReplyOptions = {
  format: ToolFormat;
  /** The request as the client sent it (its tools are the roster), not the prepared one. */
  request: ChatRequest;
  /** Whether the reply is parsed for calls at all (tools offered and tool_choice not `none`). */
  parse: boolean;
  agentFormat: AgentFormat;
  diagnostics: DiagnosticsCollector;
  warnings: Warning[];
  redactor?: SecretRedactor;
  /** Ids for the calls parsed out of the text (the app's pool). */
  callIds?: RandomHexPool;
  /** How the reply is checked against the request's JSON response format; unchecked when absent. */
  responseFormat?: ResponseFormatOptions;
};

export function parsePromptedReply(upstream: AsyncIterable<StreamEvent>, options: PromptedReplyOptions): AsyncIterable<StreamEvent> {
  const { request, diagnostics } = options;
  const plan: ReplyPlan = {
    model: request.model,
    request,
    toolFormat: fixedFormat(options.format),
    parseTools: options.parse ? (request.tools ?? noTools) : noTools,
    startsInReasoning: replyStartsInReasoning(request),
    agentFormat: options.agentFormat,
    diagnostics,
    finalize: {
      warnings: options.warnings,
      diagnostics,
      provider: request.model.provider,
      ...(options.redactor ? { redactor: options.redactor } : {}),
    },
  };
  if (options.callIds) plan.callIds = options.callIds;
  if (options.responseFormat) plan.responseFormat = options.responseFormat;
  return applyReplyStages(promptedLane, upstream, plan);
}

const noTools: ToolDefinition[] = [];

/** The prompted lane's format whatever family is asked (returned by a function: no name patched on per request under tsx). */
function fixedFormat(format: ToolFormat): ReplyPlan['toolFormat'] {
  return () => format;
}
