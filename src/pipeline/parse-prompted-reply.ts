/**
 * The prompted lane's way back, in one place: the family parser over the upstream's text (also read for a
 * reasoning block the template opened when there are no tools), the agent format, then the finalize stage.
 * Chat replies and the inspector's parse route both run it, so what the inspector shows is what a reply gives.
 */
import type { ChatRequest } from '../core/chat-request.js';
import type { SecretRedactor } from '../core/secret-redactor.js';
import type { StreamEvent } from '../core/stream-event.js';
import type { ToolDefinition } from '../core/tool-definition.js';
import type { ToolFormat } from '../core/tool-format.js';
import type { Warning } from '../core/warning.js';
import type { AgentFormat } from './agent-format/agent-format.js';
import { applyAgentFormatToEvents } from './agent-format/apply-agent-format.js';
import type { DiagnosticsCollector } from './diagnostics-collector.js';
import { finalizeEvents } from './finalize-events.js';
import { checkResponseFormat, type ResponseFormatOptions } from './check-response-format.js';
import { parseTextIntoCalls, type ParseOptions } from './parse-text-into-calls.js';
import { replyStartsInReasoning } from './reply-starts-in-reasoning.js';
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
  /** The requested JSON format, checked by the gateway (the prompted lane's upstream has no native form for it). */
  responseFormat?: ResponseFormatOptions;
};

export function parsePromptedReply(upstream: AsyncIterable<StreamEvent>, options: PromptedReplyOptions): AsyncIterable<StreamEvent> {
  const { format, request, agentFormat, diagnostics } = options;
  const tools = request.tools ?? [];
  const startsInReasoning = replyStartsInReasoning(request);
  const parsed =
    options.parse || startsInReasoning
      ? parseTextIntoCalls(upstream, {
          createParser: parserMaker(format, options.parse ? tools : []),
          startsInReasoning,
          diagnostics,
          singleCall: request.parallelToolCalls === false,
          keepRawText: agentFormat.type === 'passthrough',
          ...(options.callIds ? { callIds: options.callIds } : {}),
        })
      : upstream;
  const finalize = {
    warnings: options.warnings,
    diagnostics,
    provider: request.model.provider,
    ...(options.redactor ? { redactor: options.redactor } : {}),
  };
  const checked = options.responseFormat ? checkResponseFormat(parsed, options.responseFormat) : parsed;
  return finalizeEvents(applyAgentFormatToEvents(checked, agentFormat), finalize);
}

/**
 * The reply's parser maker, returned by a function rather than written inline in the options: under tsx a
 * function that gets a name from its property costs a name patched onto it per request (3.5 µs here).
 */
function parserMaker(format: ToolFormat, tools: ToolDefinition[]): ParseOptions['createParser'] {
  return (inReasoning) => format.createParser(tools, { startsInReasoning: inReasoning });
}
