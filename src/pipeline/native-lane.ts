/**
 * The native lane: the upstream is sent the tools and the response format in its own fields and parses its
 * own calls, and the reply stages (src/pipeline/stages.ts) read what it returns. A refusal before the first
 * byte moves the request to the gateway's way: a server that refuses this model's native tools, or the
 * tools' schemas, gets it prompted (planned again), one that refuses the native response format gets the
 * format in the prompt.
 */
import type { ChatInput, ChatRequest } from '../core/chat-request.js';
import type { ProviderContext } from '../core/provider-adapter.js';
import type { ResolvedModel } from '../core/resolved-model.js';
import type { StreamEvent } from '../core/stream-event.js';
import type { ToolDefinition } from '../core/tool-definition.js';
import type { Warning } from '../core/warning.js';
import type { AccessPolicy } from './access-policy.js';
import type { AgentFormat } from './agent-format/agent-format.js';
import type { ChatPipelineDependencies } from './chat-pipeline-dependencies.js';
import type { ChatRun, RunOptions } from './chat-run.js';
import type { DiagnosticsCollector } from './diagnostics-collector.js';
import type { ProviderDirectory } from './provider-directory.js';
import { replyStartsInReasoning } from './reply-starts-in-reasoning.js';
import type { ResponseFormatPlacement } from './response-format-placement.js';
import { applyReplyStages, nativeLane, type ReplyPlan } from './stages.js';
import { streamWithRetries, type RetryOptions } from './stream-with-retries.js';
import type { TargetPlanner } from './target-planner.js';
import type { ToolFormatLookup } from './tool-format-lookup.js';
import type { ToolLaneRefusals } from './tool-lane-refusals.js';

export class NativeLane {
  constructor(
    private readonly planner: TargetPlanner,
    private readonly providers: ProviderDirectory,
    private readonly toolFormats: ToolFormatLookup,
    private readonly toolRefusals: ToolLaneRefusals,
    private readonly responseFormats: ResponseFormatPlacement,
    private readonly dependencies: Pick<ChatPipelineDependencies, 'repairJson' | 'redactor'>,
  ) {}

  /** `request`: the target's, prepared by the planner; `input`: the client's, planned again after a refusal of native tools. */
  async run(
    model: ResolvedModel,
    request: ChatRequest,
    agentFormat: AgentFormat,
    toolPolicy: AccessPolicy | undefined,
    diagnostics: DiagnosticsCollector,
    routeWarnings: Warning[],
    retries: RetryOptions,
    input: ChatInput,
    context: ProviderContext,
    options: RunOptions,
  ): Promise<ChatRun> {
    const adapter = this.providers.adapter(model.provider);
    let sent = this.responseFormats.forNativeLane(request, diagnostics, routeWarnings);
    let upstream: AsyncIterable<StreamEvent>;
    try {
      upstream = await streamWithRetries(adapter, sent, context, retries);
    } catch (error) {
      const prompted = this.promptedAfterToolRefusal(model, request, sent, error, input, context, options, retries);
      if (prompted) return prompted;
      // One that refuses the native form of the response format gets it in the prompt, checked by the gateway,
      // and so does one whose grammar compiler gave up on the schema (for that schema only).
      if (!this.responseFormats.learnRefusal(model, sent, error, context, diagnostics, routeWarnings)) throw error;
      sent = this.responseFormats.forNativeLane(request, diagnostics, routeWarnings);
      try {
        upstream = await streamWithRetries(adapter, sent, context, retries);
      } catch (retryError) {
        // The format out of the way, the server reads what it did not beside it: llama-server's parser generator
        // builds the format's grammar alone (chat-auto-parser-generator.cpp), so the tools' schemas are first
        // converted, and may be refused, now.
        const promptedOnRetry = this.promptedAfterToolRefusal(model, request, sent, retryError, input, context, options, retries);
        if (promptedOnRetry) return promptedOnRetry;
        throw retryError;
      }
    }
    // A server without a reasoning parser hands on the raw text of a template that opened reasoning,
    // and an inference server may lack a tool parser for this model (vLLM tells no one which it was
    // started with) or its parser may miss a call: the family's parser reads that text, so what the
    // server left as markup still arrives as reasoning and calls. Not under `tool_choice: "none"`: the
    // client was promised no calls, and vLLM still renders the tools then, so the model may write one.
    // The stages: src/pipeline/stages.ts.
    const replyPlan: ReplyPlan = {
      model,
      request,
      toolFormat: this.toolFormats.of,
      parseTools: serverMayLeaveMarkup(model) && request.toolChoice?.type !== 'none' ? (request.tools ?? noTools) : noTools,
      startsInReasoning: replyStartsInReasoning(request),
      agentFormat,
      diagnostics,
      finalize: { warnings: routeWarnings, diagnostics, provider: model.provider, redactor: this.dependencies.redactor },
    };
    if (this.dependencies.repairJson) replyPlan.repairJson = this.dependencies.repairJson;
    if (toolPolicy) replyPlan.toolPolicy = toolPolicy;
    const formatCheck = this.responseFormats.replyCheck(request, diagnostics, agentFormat);
    if (formatCheck) replyPlan.responseFormat = formatCheck;
    // The count is final here: the upstream answered.
    return { model, toolCalling: 'native', events: applyReplyStages(nativeLane, upstream, replyPlan), attempts: retries.attempts.count };
  }

  /**
   * Nothing reached the client yet: a server that refuses this model's native tools gets the same request
   * prompted, and one whose grammar compiler refused the tools' schemas (llama-server) gets it prompted with a
   * warning. Undefined for any other error.
   */
  private promptedAfterToolRefusal(
    model: ResolvedModel,
    request: ChatRequest,
    sent: ChatRequest,
    error: unknown,
    input: ChatInput,
    context: ProviderContext,
    options: RunOptions,
    retries: RetryOptions,
  ): Promise<ChatRun> | undefined {
    if (this.toolRefusals.promptedAfterRefusal(model, request, error, context))
      return this.planner.plan({ ...model, toolCalling: 'prompted' }, input, context, options, retries.attempts);
    const schemasRefused = this.toolRefusals.promptedAfterSchemaRefusal(model, request, sent, error, context);
    if (!schemasRefused) return undefined;
    const warned: ChatInput = { ...input, warnings: [...(input.warnings ?? []), schemasRefused] };
    return this.planner.plan({ ...model, toolCalling: 'prompted' }, warned, context, options, retries.attempts);
  }
}

const noTools: ToolDefinition[] = [];

/**
 * An open-model inference server (vLLM, SGLang, llama-server, LM Studio, Ollama) answers this model:
 * its text may carry the family's call markup when it did not parse it. Not a first-party API, and not
 * an unidentified server, whose replies go on as they come.
 */
function serverMayLeaveMarkup(model: ResolvedModel): boolean {
  return model.server !== undefined && model.server !== 'generic';
}
