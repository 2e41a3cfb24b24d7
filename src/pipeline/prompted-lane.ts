/**
 * The prompted lane: the gateway writes the tools into the prompt in the family's own syntax (or leaves
 * them to the server's template, src/pipeline/prepare-prompted-request.ts) and parses the calls out of the
 * reply's text. A server that cannot render the tools gets the request planned again, with the tools in
 * the prompt.
 */
import type { ChatInput, ChatRequest } from '../core/chat-request.js';
import type { ProviderContext } from '../core/provider-adapter.js';
import type { RequestCaches } from '../core/request-caches.js';
import type { ResolvedModel } from '../core/resolved-model.js';
import type { StreamEvent } from '../core/stream-event.js';
import type { Warning } from '../core/warning.js';
import type { AgentFormat } from './agent-format/agent-format.js';
import type { ChatPipelineDependencies } from './chat-pipeline-dependencies.js';
import type { ChatRun, RunOptions } from './chat-run.js';
import type { DiagnosticsCollector } from './diagnostics-collector.js';
import { parsePromptedReply, type PromptedReplyOptions } from './parse-prompted-reply.js';
import { preparePromptedRequest } from './prepare-prompted-request.js';
import type { ProviderDirectory } from './provider-directory.js';
import { recordedReply } from './recent-replies.js';
import type { ResponseFormatPlacement } from './response-format-placement.js';
import { streamWithRetries, type RetryOptions } from './stream-with-retries.js';
import type { TargetPlanner } from './target-planner.js';
import type { ToolFormatLookup } from './tool-format-lookup.js';
import type { ToolLaneRefusals } from './tool-lane-refusals.js';
import { ToolPromptCache } from './tool-prompt-cache.js';

export class PromptedLane {
  private readonly toolPrompts: ToolPromptCache;

  constructor(
    private readonly planner: TargetPlanner,
    private readonly providers: ProviderDirectory,
    private readonly caches: RequestCaches,
    private readonly toolFormats: ToolFormatLookup,
    private readonly toolRefusals: ToolLaneRefusals,
    private readonly responseFormats: ResponseFormatPlacement,
    private readonly dependencies: Pick<ChatPipelineDependencies, 'redactor' | 'recentReplies' | 'ids'>,
  ) {
    this.toolPrompts = new ToolPromptCache(caches);
  }

  /** `request`: the target's, prepared by the planner; `input`: the client's, planned again after a refusal. */
  async run(
    model: ResolvedModel,
    request: ChatRequest,
    agentFormat: AgentFormat,
    diagnostics: DiagnosticsCollector,
    routeWarnings: Warning[],
    retries: RetryOptions,
    input: ChatInput,
    context: ProviderContext,
    options: RunOptions,
  ): Promise<ChatRun> {
    const adapter = this.providers.adapter(model.provider);
    const format = this.toolFormats.of(model.family);
    const prepared = preparePromptedRequest(request, format, this.toolPrompts, this.caches, {
      serverMayRenderTools: this.toolRefusals.serverMayRenderTools(model),
    });
    for (const warning of prepared.warnings) diagnostics.warn(warning);
    let formatted = this.responseFormats.forPromptedLane(prepared.request, prepared.parse, diagnostics);
    let upstream: AsyncIterable<StreamEvent>;
    try {
      upstream = await streamWithRetries(adapter, formatted.request, context, retries);
    } catch (error) {
      // Nothing reached the client yet: a server that cannot render the tools (llama-server without Jinja)
      // gets the same request with the tools written into the prompt by the gateway.
      if (prepared.serverRendered && this.toolRefusals.templateRefused(model, error, context))
        return this.planner.plan(model, input, context, options, retries.attempts);
      // Without tools the upstream's own JSON mode was kept: one that refuses it (or cannot compile the schema)
      // gets the format in the prompt, as in the native lane.
      if (!this.responseFormats.learnRefusal(model, formatted.request, error, context, diagnostics, routeWarnings)) throw error;
      formatted = this.responseFormats.forPromptedLane(prepared.request, prepared.parse, diagnostics);
      upstream = await streamWithRetries(adapter, formatted.request, context, retries);
    }
    const warnings = [...routeWarnings, ...prepared.warnings, ...formatted.warnings];
    const { redactor, recentReplies, ids } = this.dependencies;
    const parsing: PromptedReplyOptions = { format, request, parse: prepared.parse, agentFormat, diagnostics, warnings };
    if (redactor) parsing.redactor = redactor;
    if (ids) parsing.callIds = ids;
    const formatCheck = this.responseFormats.replyCheck(request, diagnostics, agentFormat);
    if (formatCheck) parsing.responseFormat = formatCheck;
    // No named closure for the plain case: under tsx each one costs a name patched on per request.
    const events = recentReplies
      ? recordedReply(recentReplies, { model: model.id, family: format.family, key: options.access?.name ?? null }, upstream, (replied) =>
          parsePromptedReply(replied, parsing),
        )
      : parsePromptedReply(upstream, parsing);
    return { model, toolCalling: 'prompted', toolFormat: format.family, events, attempts: retries.attempts.count };
  }
}
