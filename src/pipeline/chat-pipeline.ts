/**
 * Runs one chat (and only that: providers by name are src/pipeline/provider-directory.ts): resolves the model, picks the lane (native or prompted), calls the provider (with its
 * retries), and returns the neutral event stream every route renders. Streaming and non-streaming share it.
 * A target that fails before its first byte hands over to its next fallback, planned again from the
 * client's request: a prompted fallback of a native model gets the tools and history in its own syntax.
 */
import { defaultRetries, normalizeAgentFormats } from '../config/normalize-config.js';
import { fallbackKey } from '../config/normalize-fallbacks.js';
import { resolveModel, toolCallingSetting } from '../config/resolve-model.js';
import type { GatewayConfig } from '../config/config-types.js';
import { chatRequestFrom, type ChatInput, type ChatRequest } from '../core/chat-request.js';
import { gatewayError, type GatewayError } from '../core/gateway-error.js';
import type { ProviderAdapter, ProviderContext } from '../core/provider-adapter.js';
import { RequestCaches } from '../core/request-caches.js';
import type { RandomHexPool } from '../core/random-hex-pool.js';
import type { ResolvedModel, ToolCallingMode } from '../core/resolved-model.js';
import type { StreamEvent } from '../core/stream-event.js';
import type { ToolDefinition } from '../core/tool-definition.js';
import type { ToolFormat } from '../core/tool-format.js';
import type { AgentSyntaxRegistry } from '../core/agent-text-syntax.js';
import type { SecretRedactor } from '../core/secret-redactor.js';
import type { ServerDirectory } from '../core/server-directory.js';
import type { AgentFormat, AgentFormatRequest, AgentFormatSelection } from './agent-format/agent-format.js';
import { AgentFormatSelector } from './agent-format/agent-format-selector.js';
import { applyAgentFormatToEvents, applyAgentFormatToRequest } from './agent-format/apply-agent-format.js';
import type { Warning } from '../core/warning.js';
import type { AccessPolicy } from './access-policy.js';
import { DiagnosticsCollector } from './diagnostics-collector.js';
import { dropDisallowedCalls } from './drop-disallowed-calls.js';
import { tapReply, type ReplySummary } from './tap-reply.js';
import { finalizeEvents } from './finalize-events.js';
import { parsePromptedReply, type PromptedReplyOptions } from './parse-prompted-reply.js';
import { parseTextIntoCalls } from './parse-text-into-calls.js';
import { recordedReply, type RecentReplies } from './recent-replies.js';
import { preparePromptedRequest } from './prepare-prompted-request.js';
import { ToolPromptCache } from './tool-prompt-cache.js';
import { replyStartsInReasoning } from './reply-starts-in-reasoning.js';
import { repairNativeArguments, type JsonRepair } from './repair-native-arguments.js';
import { validateChatInput } from './validate-chat-input.js';
import { mayLoseHarmonyRecipient, noticeLostHarmonyRecipient } from './vllm-harmony-notice.js';
import { classifyUpstreamFailure, failureReason } from '../http/upstream-failure.js';
import { FallbackTargets } from './fallback-targets.js';
import { isNativeToolsRefusal } from './native-tools-refused.js';
import { ProviderDirectory } from './provider-directory.js';
import { asksForJson, checkResponseFormat, type ResponseFormatOptions } from './check-response-format.js';
import type { SchemaCheck } from './schema-validators.js';
import { promptForResponseFormat } from './response-format-prompt.js';
import { streamWithRetries, type AttemptCount, type ResilienceObserver } from './stream-with-retries.js';

export type ChatPipelineDependencies = {
  config: GatewayConfig;
  providers: ReadonlyMap<string, ProviderAdapter>;
  toolFormats: ReadonlyMap<string, ToolFormat>;
  /** Text syntaxes for agent_format; without it only openai, codex and passthrough exist. */
  agentSyntaxes?: AgentSyntaxRegistry;
  /** Redacts configured secrets from in-band errors; nothing is redacted without it. */
  redactor?: SecretRedactor;
  /** Repairs native tool calls' broken JSON arguments (the prompted lane's lenient reader); without it they pass as received. */
  repairJson?: JsonRepair;
  /** The last prompted-lane replies for the inspector, when `debug.recentReplies` is set. */
  recentReplies?: RecentReplies;
  /** Counts retries and fallbacks (the app's metrics). */
  resilience?: ResilienceObserver;
  /** The app's caches (src/core/request-caches.ts); fresh ones when absent. */
  caches?: RequestCaches;
  /** What answers each provider (detected servers pick `toolCalling: auto`'s lane); the families table alone when absent. */
  servers?: ServerDirectory;
  /** Validates replies against `response_format` schemas (ajv, compiled once per schema); unchecked when absent. */
  schemaCheck?: SchemaCheck;
  /** The app's pool of random hex, for the ids of calls parsed out of text; a UUID each when absent. */
  ids?: RandomHexPool;
};

export type RunOptions = {
  /** How calls reach the client (agent_format); structured `openai` when absent. */
  agentFormat?: AgentFormat;
  /** The client key's policy (models, tools); absent: full access. */
  access?: AccessPolicy;
  /** Told how the reply ended, when it finishes (token quotas, metrics). */
  onFinish?: (summary: ReplySummary, run: ChatRun) => void;
  /** Told when the reply ends in an error event instead (metrics, traces). */
  onError?: (error: GatewayError, run: ChatRun) => void;
  /** Filled in as the run goes, so that a run that fails still says what it tried (the error reply's headers). */
  progress?: RunProgress;
};

/** Upstream requests made so far, and the target tried last (absent until one is planned). */
export type RunProgress = AttemptCount & { target?: ResolvedModel };

const noAgentSyntaxes: AgentSyntaxRegistry = {
  syntaxes: new Map(),
  custom: () => {
    throw new Error('no text syntaxes are registered');
  },
};

export type ChatRun = {
  model: ResolvedModel;
  toolCalling: ToolCallingMode;
  /** The family used in the prompted lane (absent in the native lane). */
  toolFormat?: string;
  events: AsyncIterable<StreamEvent>;
  /** Upstream requests made, over every target tried (retries and fallbacks included). */
  attempts: number;
};

export class ChatPipeline {
  private readonly agentFormats: AgentFormatSelector;
  private readonly fallbacks: FallbackTargets;
  private readonly caches: RequestCaches;
  private readonly providers: ProviderDirectory;
  private readonly toolPrompts: ToolPromptCache;

  constructor(private readonly dependencies: ChatPipelineDependencies) {
    this.caches = dependencies.caches ?? new RequestCaches();
    this.providers = new ProviderDirectory(dependencies.config, dependencies.providers);
    this.toolPrompts = new ToolPromptCache(this.caches);
    this.agentFormats = new AgentFormatSelector(
      dependencies.config.agentFormats ?? normalizeAgentFormats(undefined),
      dependencies.agentSyntaxes ?? noAgentSyntaxes,
    );
    this.fallbacks = new FallbackTargets(dependencies.config, (modelString) => this.resolve(modelString));
  }

  /** The request's agent format (body field, X-Agent-Format, config rules, default); an unknown one is a 400. */
  selectAgentFormat(request: AgentFormatRequest): AgentFormatSelection {
    return this.agentFormats.select(request);
  }

  resolve(modelString: string, providerName?: string): ResolvedModel {
    return resolveModel(this.dependencies.config, modelString, providerName, this.caches.modelFamilies, this.dependencies.servers);
  }

  private toolFormat(family: string): ToolFormat {
    return this.dependencies.toolFormats.get(family) ?? this.dependencies.toolFormats.get('generic-json') ?? missingFormat(family);
  }

  /**
   * Resolves after the upstream accepted the request (2xx headers); earlier failures reject. The fallback
   * loop sits above planning: each target is planned from the client's own request.
   */
  async run(input: ChatInput, context: ProviderContext, options: RunOptions = {}): Promise<ChatRun> {
    validateChatInput(input, this.caches);
    const primary = this.resolve(input.model, input.provider);
    options.access?.checkModel(primary);
    const fallbacks = this.fallbacks.after(primary, options.access);
    const attempts: RunProgress = options.progress ?? { count: 0 };
    for (let target = primary, position = 0; ; position++) {
      attempts.target = target;
      try {
        return tapped(await this.plan(target, input, context, options, attempts), options);
      } catch (error) {
        const next = fallbacks[position];
        const failure = next && !context.cancellation.aborted ? classifyUpstreamFailure(error) : undefined;
        if (!next || !failure || !this.fallbacks.handsOver(failure)) throw error;
        const handover = { provider: target.provider, model: target.model, reason: failureReason(failure) };
        context.log.info({ ...handover, fallback: fallbackKey(next), attempts: attempts.count }, 'falling back to the next target');
        this.dependencies.resilience?.observeFallback(handover);
        target = next;
      }
    }
  }

  private async plan(
    model: ResolvedModel,
    input: ChatInput,
    context: ProviderContext,
    options: RunOptions,
    attempts: AttemptCount,
  ): Promise<ChatRun> {
    const agentFormat: AgentFormat = options.agentFormat ?? { type: 'structured', name: 'openai' };
    // A copy: each target's plan adds its own warnings, and a fallback must not inherit the failed one's.
    const routeWarnings = [...(input.warnings ?? [])];
    const { access } = options;
    const request: ChatRequest = applyAgentFormatToRequest(chatRequestFrom(input, model), agentFormat);
    const toolPolicy = access?.limitsTools ? access : undefined;
    if (toolPolicy) restrictTools(request, toolPolicy, routeWarnings);
    const adapter = this.providers.adapter(model.provider);
    const retries = {
      settings: this.providers.config(model.provider).retries ?? defaultRetries,
      attempts,
      observer: this.dependencies.resilience,
    };
    const diagnostics = new DiagnosticsCollector(request.tools ?? []);
    for (const warning of routeWarnings) diagnostics.warn(warning);

    if (model.toolCalling === 'native') {
      const sent = this.scriptedFormatRequest(request, diagnostics, routeWarnings);
      let upstream: AsyncIterable<StreamEvent>;
      try {
        upstream = await streamWithRetries(adapter, sent, context, retries);
      } catch (error) {
        // Nothing reached the client yet: a server that refuses this model's native tools gets the same request prompted.
        if (!this.promptedAfterRefusal(model, request, error, context)) throw error;
        return this.plan({ ...model, toolCalling: 'prompted' }, input, context, options, attempts);
      }
      // A server without a reasoning parser hands on the raw text of a template that opened reasoning,
      // and an inference server may lack a tool parser for this model (vLLM tells no one which it was
      // started with) or its parser may miss a call: the family's parser reads that text, so what the
      // server left as markup still arrives as reasoning and calls.
      const startsInReasoning = replyStartsInReasoning(request);
      const textTools = serverMayLeaveMarkup(model) ? (request.tools ?? noTools) : noTools;
      const read =
        startsInReasoning || textTools.length > 0
          ? parseTextIntoCalls(upstream, {
              createParser: (inReasoning) => this.toolFormat(model.family).createParser(textTools, { startsInReasoning: inReasoning }),
              startsInReasoning,
              diagnostics,
              singleCall: request.parallelToolCalls === false,
            })
          : upstream;
      const noticed = mayLoseHarmonyRecipient(model.server, model.family, textTools.length)
        ? noticeLostHarmonyRecipient(read, diagnostics)
        : read;
      const repairJson = this.dependencies.repairJson;
      const repaired = repairJson ? repairNativeArguments(noticed, { repair: repairJson, diagnostics }) : noticed;
      const allowed = toolPolicy ? dropDisallowedCalls(repaired, (name) => toolPolicy.allowsTool(name), diagnostics) : repaired;
      const formatCheck = this.responseFormatCheck(request, diagnostics);
      const checked = formatCheck ? checkResponseFormat(allowed, formatCheck) : allowed;
      const events = applyAgentFormatToEvents(checked, agentFormat);
      // The count is final here: the upstream answered.
      return {
        model,
        toolCalling: 'native',
        events: finalizeEvents(events, {
          warnings: routeWarnings,
          diagnostics,
          provider: model.provider,
          redactor: this.dependencies.redactor,
        }),
        attempts: attempts.count,
      };
    }

    const format = this.toolFormat(model.family);
    const prepared = preparePromptedRequest(request, format, this.toolPrompts, this.caches);
    for (const warning of prepared.warnings) diagnostics.warn(warning);
    const formatted = this.promptedFormatRequest(prepared.request, prepared.parse, diagnostics);
    const upstream = await streamWithRetries(adapter, formatted.request, context, retries);
    const warnings = [...routeWarnings, ...prepared.warnings, ...formatted.warnings];
    const { redactor, recentReplies } = this.dependencies;
    const parsing: PromptedReplyOptions = { format, request, parse: prepared.parse, agentFormat, diagnostics, warnings };
    if (redactor) parsing.redactor = redactor;
    if (this.dependencies.ids) parsing.callIds = this.dependencies.ids;
    const formatCheck = this.responseFormatCheck(request, diagnostics);
    if (formatCheck) parsing.responseFormat = formatCheck;
    // No named closure for the plain case: under tsx each one costs a name patched on per request.
    const events = recentReplies
      ? recordedReply(recentReplies, { model: model.id, family: format.family, key: access?.name ?? null }, upstream, (replied) =>
          parsePromptedReply(replied, parsing),
        )
      : parsePromptedReply(upstream, parsing);
    return { model, toolCalling: 'prompted', toolFormat: format.family, events, attempts: attempts.count };
  }

  /**
   * The scripted kind plays a model with no native JSON mode: the format goes into its prompt. Other
   * native upstreams get the format in their own field (each adapter maps it).
   */
  private scriptedFormatRequest(request: ChatRequest, diagnostics: DiagnosticsCollector, warnings: Warning[]): ChatRequest {
    const format = request.responseFormat;
    if (!asksForJson(format) || this.providers.config(request.model.provider).type !== 'scripted') return request;
    const why = 'the scripted provider has no constrained decoding';
    const prompted = promptForResponseFormat(request, format, { withTools: Boolean(request.tools?.length), why });
    for (const warning of prompted.warnings) diagnostics.warn(warning);
    warnings.push(...prompted.warnings);
    return prompted.request;
  }

  /**
   * Prompted lane with tools: a native JSON mode would constrain the reply to the schema and leave no
   * room for the family's call markup, so the format is written into the prompt instead and checked by
   * the gateway. Without tools the upstream's own field is kept (its adapter maps it).
   */
  private promptedFormatRequest(
    request: ChatRequest,
    parse: boolean,
    diagnostics: DiagnosticsCollector,
  ): { request: ChatRequest; warnings: Warning[] } {
    const format = request.responseFormat;
    const scripted = this.providers.config(request.model.provider).type === 'scripted';
    if (!asksForJson(format) || (!parse && !scripted)) return { request, warnings: [] };
    const why = scripted ? 'the scripted provider has no constrained decoding' : 'tools are written into the prompt for this model';
    const prompted = promptForResponseFormat(request, format, { withTools: parse, why });
    for (const warning of prompted.warnings) diagnostics.warn(warning);
    return prompted;
  }

  /**
   * How the reply is checked against the requested JSON format, or undefined when none was asked for.
   * Native upstreams are checked too: an upstream whose native form is best effort (json_object modes,
   * Ollama's format on small models) can still answer off-schema, and the client is owed the verdict.
   */
  private responseFormatCheck(request: ChatRequest, diagnostics: DiagnosticsCollector): ResponseFormatOptions | undefined {
    const { schemaCheck, repairJson } = this.dependencies;
    const format = request.responseFormat;
    if (!schemaCheck || !asksForJson(format)) return undefined;
    const options: ResponseFormatOptions = { format, check: schemaCheck, diagnostics };
    if (repairJson) options.repair = repairJson;
    return options;
  }

  /**
   * The server refused native tools for a model that `auto` sent natively (vLLM without a tool parser):
   * remembered, so the model is prompted from now on, and true when this request is to be prompted too.
   * An explicit `toolCalling: native` is the operator's word and keeps the error.
   */
  private promptedAfterRefusal(model: ResolvedModel, request: ChatRequest, error: unknown, context: ProviderContext): boolean {
    const { servers } = this.dependencies;
    if (!servers || !request.tools?.length || !isNativeToolsRefusal(error)) return false;
    if (toolCallingSetting(this.providers.config(model.provider), model.model) !== 'auto') return false;
    servers.rememberNativeRefused(model.provider, model.model);
    context.log.warn(
      { provider: model.provider, model: model.model, reason: (error as Error).message },
      'the server refused native tools for this model: it is prompted from now on',
    );
    return true;
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

/**
 * The run with its listeners told how the reply ends. A whole reply runs through its stages right here, so
 * the listener is told the run it belongs to.
 */
function tapped(run: ChatRun, options: RunOptions): ChatRun {
  const { onFinish, onError } = options;
  if (onFinish || onError)
    run.events = tapReply(run.events, (summary) => onFinish?.(summary, run), onError && ((error) => onError(error, run)));
  return run;
}

/** Takes the tools the key may not use out of the request (with a warning); a tool_choice naming one is refused. */
function restrictTools(request: ChatRequest, access: AccessPolicy, warnings: Warning[]): void {
  if (!request.tools?.length) return;
  const choice = request.toolChoice;
  if (choice?.type === 'tool' && !access.allowsTool(choice.name)) {
    throw gatewayError('tool_not_allowed', {
      param: 'tool_choice',
      message: `The API key '${access.name}' may not use tool '${choice.name}'.`,
    });
  }
  const filtered = access.filterTools(request.tools);
  request.tools = filtered.tools.length ? filtered.tools : undefined;
  if (!request.tools && choice?.type === 'required') request.toolChoice = undefined;
  if (filtered.warning) warnings.push(filtered.warning);
}

function missingFormat(family: string): never {
  throw gatewayError('internal_error', { message: `No tool format is registered for family '${family}'.` });
}
