/**
 * Runs one chat (and only that: providers by name are src/pipeline/provider-directory.ts): resolves the model, picks the lane (native or prompted), calls the provider (with its
 * retries), and returns the neutral event stream every route renders. Streaming and non-streaming share it.
 * A target that fails before its first byte hands over to its next fallback, planned again from the
 * client's request: a prompted fallback of a native model gets the tools and history in its own syntax.
 */
import { defaultRetries, normalizeAgentFormats } from '../config/normalize-config.js';
import { fallbackKey } from '../config/normalize-fallbacks.js';
import { resolveModel, toolCallingSetting } from '../config/resolve-model.js';
import type { Deployment, GatewayConfig } from '../config/config-types.js';
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
import { applyAgentFormatToRequest } from './agent-format/agent-format.js';
import type { Warning } from '../core/warning.js';
import type { AccessPolicy } from './access-policy.js';
import { DiagnosticsCollector } from './diagnostics-collector.js';
import { tapReply, type ReplyListener, type ReplySummary } from './tap-reply.js';
import { parsePromptedReply, type PromptedReplyOptions } from './parse-prompted-reply.js';
import { recordedReply, type RecentReplies } from './recent-replies.js';
import { preparePromptedRequest } from './prepare-prompted-request.js';
import { ToolPromptCache } from './tool-prompt-cache.js';
import { replyStartsInReasoning } from './reply-starts-in-reasoning.js';
import type { JsonRepair } from './repair-native-arguments.js';
import { validateChatInput } from './validate-chat-input.js';
import { failureReason } from '../http/upstream-failure.js';
import { FallbackTargets } from './fallback-targets.js';
import type { ProviderKindLookup } from '../core/provider-types.js';
import { nativeFormatGap } from './native-format-gap.js';
import { refusalMemories, type RefusalMemories } from '../core/refusal-memory.js';
import { withoutClaudeOnlyFields } from './claude-only-fields.js';
import { asksForJson, type ResponseFormatOptions } from './check-response-format.js';
import type { SchemaCheck } from './schema-validators.js';
import { promptForResponseFormat } from './response-format-prompt.js';
import { DeploymentBalancer, sessionKeyOf } from './deployment-balancer.js';
import { DeploymentTargets, type TargetObserver } from './deployment-observer.js';
import { isNativeToolsRefusal } from './native-tools-refused.js';
import { isTemplateToolsRefusal } from './template-tools-refused.js';
import { isResponseFormatRefusal } from './response-format-refused.js';
import { ModelRefusals } from './model-refusals.js';
import { ProviderDirectory } from './provider-directory.js';
import { failureOf, streamWithRetries, type AttemptCount, type ResilienceObserver } from './stream-with-retries.js';
import { applyReplyStages, nativeLane, type ReplyPlan } from './stages.js';
import { capWholeReply, WholeReplyDeadlines } from './whole-reply-bound.js';
import type { PriceTable } from './price-table.js';
import { pricedEvents } from './priced-events.js';
import { estimatedUsage } from './estimated-usage.js';
import type { Usage } from '../core/usage.js';

export type ChatPipelineDependencies = {
  config: GatewayConfig;
  /** What each provider kind says of its models (the provider registry's lookup, handed in by app.ts). */
  kinds: ProviderKindLookup;
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
  /** Orders each deployment's targets (the config's `deployments`); a fresh one when absent. */
  balancer?: DeploymentBalancer;
  /** Prices replies (the cost in the finish event's usage); no reply is priced without it. */
  prices?: PriceTable;
  /** Makes the memories of upstream refusals, with the app's lifetime and clock; ten minutes by Date.now when absent. */
  refusals?: RefusalMemories;
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
  /**
   * Told, with estimated usage (priced when the model is), when a reply the upstream accepted ends without
   * its usage: an error event, a stream that broke off, a client that left; or when a request is abandoned
   * (its client left, its deadline passed) before the upstream answered, while it was generating. The upstream
   * billed what it generated, so budgets and usage count it too. `model`: the target that was generating.
   */
  onIncomplete?: (usage: Usage, model: ResolvedModel) => void;
  /** Filled in as the run goes, so that a run that fails still says what it tried (the error reply's headers). */
  progress?: RunProgress;
  /** The client's own session id (`x-session-id`): a deployment with session affinity keeps it on one target. */
  sessionId?: string;
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
  /** The deployment target that answered (`provider/model`), when the model named a deployment. */
  deployment?: string;
  /** What the reply cost in USD, once its finish event passed and the model's price is known. */
  costUsd?: number;
};

export class ChatPipeline {
  private readonly agentFormats: AgentFormatSelector;
  private readonly fallbacks: FallbackTargets;
  private readonly caches: RequestCaches;
  private readonly providers: ProviderDirectory;
  private readonly toolPrompts: ToolPromptCache;
  /** The format lookup the reply stages read, made once (a closure per request costs under tsx). */
  private readonly formatOf = (family: string): ToolFormat => this.toolFormat(family);
  private readonly balancer: DeploymentBalancer;
  private readonly formatRefused: ModelRefusals;
  private readonly templateToolsRefused: ModelRefusals;

  constructor(private readonly dependencies: ChatPipelineDependencies) {
    this.caches = dependencies.caches ?? new RequestCaches();
    this.providers = new ProviderDirectory(dependencies.config, dependencies.providers);
    this.toolPrompts = new ToolPromptCache(this.caches);
    this.agentFormats = new AgentFormatSelector(
      dependencies.config.agentFormats ?? normalizeAgentFormats(undefined),
      dependencies.agentSyntaxes ?? noAgentSyntaxes,
    );
    this.fallbacks = new FallbackTargets(dependencies.config, (modelString) => this.resolve(modelString));
    this.balancer = dependencies.balancer ?? new DeploymentBalancer();
    this.wholeReplyDeadlines = new WholeReplyDeadlines(dependencies.config.server.wholeReplyTimeoutMs);
    const refusals = dependencies.refusals ?? refusalMemories();
    this.formatRefused = new ModelRefusals(
      refusals,
      'the upstream refused the native response format for this model: the gateway enforces it until it tries the native form again',
    );
    this.templateToolsRefused = new ModelRefusals(
      refusals,
      "the server cannot render tools through the model's template: the gateway writes them into the prompt until it asks the server again",
    );
    this.keysSessions = [...(dependencies.config.deployments?.values() ?? [])].some((deployment) => deployment.sessionAffinity);
  }

  /** Some deployment keeps sessions on one target: routes then read the client's session header (RunOptions.sessionId). */
  readonly keysSessions: boolean;

  /**
   * A reply the client reads whole waits at most `server.wholeReplyTimeoutMs` (every retry and fallback
   * included): then its cancellation aborts with a 504. Routes arm it, and disarm it once the reply was sent.
   */
  readonly wholeReplyDeadlines: WholeReplyDeadlines;

  /** The request's agent format (body field, X-Agent-Format, config rules, default); an unknown one is a 400. */
  selectAgentFormat(request: AgentFormatRequest): AgentFormatSelection {
    return this.agentFormats.select(request);
  }

  resolve(modelString: string, providerName?: string): ResolvedModel {
    return resolveModel(
      this.dependencies.kinds,
      this.dependencies.config,
      modelString,
      providerName,
      this.caches.modelFamilies,
      this.dependencies.servers,
    );
  }

  /**
   * The one target of a request that is not a chat (embeddings, count_tokens), found as a chat's would be.
   * A deployment name (used like an alias) picks its first target in the strategy's order (cooldowns from
   * the chats' failures included) that the key may use; `deployment` then names it. Anything else resolves
   * as a chat's model does (`providerName`: the /{provider}/v1/… routes, where no deployment applies). The
   * key's models are checked either way (403 model_not_allowed).
   */
  singleTarget(
    modelString: string,
    access: AccessPolicy | null | undefined,
    providerName?: string,
  ): { model: ResolvedModel; deployment?: string } {
    const deployment = providerName === undefined ? this.dependencies.config.deployments?.get(modelString) : undefined;
    if (!deployment) {
      const model = this.resolve(modelString, providerName);
      access?.checkModel(model);
      return { model };
    }
    const targets = this.balancer.order(deployment).map((target) => this.resolve(target));
    const allowed = access ? targets.find((target) => access.allowsTarget(target)) : targets[0];
    if (!allowed) {
      access?.checkModel(targets[0] as ResolvedModel);
      throw gatewayError('model_not_allowed', { message: `The key may not use deployment '${modelString}'.`, param: 'model' });
    }
    return { model: allowed, deployment: `${allowed.provider}/${allowed.model}` };
  }

  private toolFormat(family: string): ToolFormat {
    return this.dependencies.toolFormats.get(family) ?? this.dependencies.toolFormats.get('generic-json') ?? missingFormat(family);
  }

  /**
   * Resolves after the upstream accepted the request (2xx headers); earlier failures reject. The fallback
   * loop sits above planning: each target is planned from the client's own request.
   */
  run(input: ChatInput, context: ProviderContext, options: RunOptions = {}): Promise<ChatRun> {
    // Not an async function: it would wrap runTargets' promise in one more (a promise and a microtask per request).
    try {
      validateChatInput(input, this.caches);
      const deployment = input.provider === undefined ? this.dependencies.config.deployments?.get(input.model) : undefined;
      if (deployment) return this.runDeployment(deployment, input, context, options);
      const primary = this.resolve(input.model, input.provider);
      options.access?.checkModel(primary);
      return this.runTargets(primary, this.fallbacks.after(primary, options.access), input, context, options);
    } catch (error) {
      // Bad input and a refused model reject like every other failure: callers never see a synchronous throw.
      return Promise.reject(error as Error);
    }
  }

  /**
   * A name served by several targets: the balancer orders them for this request; the others are the
   * first fallbacks, then the name's own `fallbacks`. Each target's requests in flight, latency and
   * failures go back to the balancer.
   */
  private async runDeployment(deployment: Deployment, input: ChatInput, context: ProviderContext, options: RunOptions): Promise<ChatRun> {
    const { access } = options;
    const ordered = this.balancer.order(deployment, deployment.sessionAffinity ? sessionKeyOf(input, options.sessionId) : undefined);
    // The client keeps the name it asked for, as with an alias.
    const resolved = ordered.map((model) => ({ ...this.resolve(model), id: input.model }));
    const allowed = access ? resolved.filter((target) => access.allowsTarget(target)) : resolved;
    const [primary, ...others] = allowed;
    if (!primary) {
      // Every target is outside the key's models: refused as the first one would be.
      access?.checkModel(resolved[0] as ResolvedModel);
      throw gatewayError('model_not_allowed', { message: `The key may not use deployment '${input.model}'.`, param: 'model' });
    }
    const observer = new DeploymentTargets(this.balancer, deployment, allowed);
    return this.runTargets(primary, [...others, ...this.fallbacks.afterName(input.model, access)], input, context, options, observer);
  }

  private async runTargets(
    primary: ResolvedModel,
    fallbacks: readonly ResolvedModel[],
    input: ChatInput,
    context: ProviderContext,
    options: RunOptions,
    observer?: TargetObserver,
  ): Promise<ChatRun> {
    const attempts: RunProgress = options.progress ?? { count: 0 };
    for (let target = primary, position = 0; ; position++) {
      attempts.target = target;
      const sentAt = observer?.sending(target) ?? 0;
      try {
        const run = await this.plan(target, input, context, options, attempts);
        // A reply read whole is capped in bytes by the target that answered (its time by wholeReplyDeadline).
        if (context.wholeReply === true)
          run.events = capWholeReply(run.events, {
            provider: target.provider,
            maxBytes: this.providers.config(target.provider).limits.maxResponseBytes,
          });
        const { prices } = this.dependencies;
        // Decided once per model (a memo lookup): a model without a known price adds no stage.
        if (prices?.knows(run.model)) run.events = pricedEvents(run.events, prices, run);
        return this.tapped(observer ? observer.answered(target, sentAt, run) : run, input, options);
      } catch (error) {
        // Abandoned before the upstream answered (a reply read whole, or a stream before its headers), the request
        // was billed all the same, and nothing of it was read (so only the prompt is counted).
        if (attempts.abandoned) options.onIncomplete?.(estimatedUsage(input, target, 0, this.dependencies.prices), target);
        const failure = context.cancellation.aborted ? undefined : failureOf(error, context);
        observer?.failed(target, failure);
        const next = fallbacks[position];
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
    withoutClaudeOnlyFields(request, this.providers.config(model.provider).type, routeWarnings);
    const adapter = this.providers.adapter(model.provider);
    const retries = {
      settings: this.providers.config(model.provider).retries ?? defaultRetries,
      attempts,
      observer: this.dependencies.resilience,
    };
    const diagnostics = new DiagnosticsCollector(request.tools ?? []);
    for (const warning of routeWarnings) diagnostics.warn(warning);

    if (model.toolCalling === 'native') {
      const sent = this.nativeFormatRequest(request, diagnostics, routeWarnings);
      let upstream: AsyncIterable<StreamEvent>;
      try {
        upstream = await streamWithRetries(adapter, sent, context, retries);
      } catch (error) {
        // Nothing reached the client yet: a server that refuses this model's native tools gets the same request prompted,
        if (this.promptedAfterRefusal(model, request, error, context))
          return this.plan({ ...model, toolCalling: 'prompted' }, input, context, options, attempts);
        // and one that refuses the native form of the response format gets it in the prompt, checked by the gateway.
        if (!sent.responseFormat || !isResponseFormatRefusal(error)) throw error;
        this.formatRefused.remember(model, error as Error, context);
        const refusal: Warning = {
          code: 'unsupported-parameter',
          message: `The upstream refused the native response format (${(error as Error).message}): the schema was written into the prompt and the reply checked by the gateway.`,
        };
        diagnostics.warn(refusal);
        routeWarnings.push(refusal);
        upstream = await streamWithRetries(adapter, this.nativeFormatRequest(request, diagnostics, routeWarnings), context, retries);
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
        toolFormat: this.formatOf,
        parseTools: serverMayLeaveMarkup(model) && request.toolChoice?.type !== 'none' ? (request.tools ?? noTools) : noTools,
        startsInReasoning: replyStartsInReasoning(request),
        agentFormat,
        diagnostics,
        finalize: { warnings: routeWarnings, diagnostics, provider: model.provider, redactor: this.dependencies.redactor },
      };
      if (this.dependencies.repairJson) replyPlan.repairJson = this.dependencies.repairJson;
      if (toolPolicy) replyPlan.toolPolicy = toolPolicy;
      const formatCheck = this.responseFormatCheck(request, diagnostics);
      if (formatCheck) replyPlan.responseFormat = formatCheck;
      // The count is final here: the upstream answered.
      return { model, toolCalling: 'native', events: applyReplyStages(nativeLane, upstream, replyPlan), attempts: attempts.count };
    }

    const format = this.toolFormat(model.family);
    const prepared = preparePromptedRequest(request, format, this.toolPrompts, this.caches, {
      serverMayRenderTools: !this.templateToolsRefused.has(model),
    });
    for (const warning of prepared.warnings) diagnostics.warn(warning);
    const formatted = this.promptedFormatRequest(prepared.request, prepared.parse, diagnostics);
    let upstream: AsyncIterable<StreamEvent>;
    try {
      upstream = await streamWithRetries(adapter, formatted.request, context, retries);
    } catch (error) {
      // Nothing reached the client yet: a server that cannot render the tools (llama-server without Jinja)
      // gets the same request with the tools written into the prompt by the gateway.
      if (!prepared.serverRendered || !isTemplateToolsRefusal(error)) throw error;
      this.templateToolsRefused.remember(model, error as Error, context);
      return this.plan(model, input, context, options, attempts);
    }
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
   * The run with its listeners told how the reply ends. A whole reply runs through its stages right here, so
   * the listener is told the run it belongs to.
   */
  private tapped(run: ChatRun, input: ChatInput, options: RunOptions): ChatRun {
    if (options.onFinish || options.onError || options.onIncomplete)
      run.events = tapReply(run.events, new RunListener(run, input, options, this.dependencies.prices));
    return run;
  }

  /**
   * Kinds whose native JSON mode is not used (the scripted model, Bedrock's Converse), `json_object` for Claude
   * (which takes schemas only), and models whose upstream refused the native form before, get the format in
   * their prompt. Other native upstreams get it in their own field (each adapter maps it).
   */
  private nativeFormatRequest(request: ChatRequest, diagnostics: DiagnosticsCollector, warnings: Warning[]): ChatRequest {
    const format = request.responseFormat;
    if (!asksForJson(format)) return request;
    const type = this.providers.config(request.model.provider).type;
    const refused = this.formatRefused.has(request.model);
    const gap = nativeFormatGap(format, type, request.model.model);
    if (!refused && !gap) return request;
    const why = refused || !gap ? 'the upstream refused its native form for this model' : gap;
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
    if (!asksForJson(format)) return { request, warnings: [] };
    const type = this.providers.config(request.model.provider).type;
    const gap = nativeFormatGap(format, type, request.model.model);
    if (!parse && !gap) return { request, warnings: [] };
    const why = gap ?? 'tools are written into the prompt for this model';
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
    // A server without Jinja refuses the tools whichever lane sends them: the prompted lane renders them itself.
    if (isTemplateToolsRefusal(error)) this.templateToolsRefused.remember(model, error as Error, context);
    context.log.warn(
      { provider: model.provider, model: model.model, reason: (error as Error).message },
      'the server refused native tools for this model: it is prompted until native tools are tried again',
    );
    return true;
  }
}

const noTools: ToolDefinition[] = [];

/** The run's options told how its reply ended, with the run it belongs to: one object per run. */
class RunListener implements ReplyListener {
  constructor(
    private readonly run: ChatRun,
    private readonly input: ChatInput,
    private readonly options: RunOptions,
    private readonly prices: PriceTable | undefined,
  ) {}

  finished(summary: ReplySummary): void {
    this.options.onFinish?.(summary, this.run);
  }

  failed(error: GatewayError): void {
    this.options.onError?.(error, this.run);
  }

  /** Worked out only for a reply that ended without the upstream's usage. */
  incomplete(outputCharacters: number): void {
    this.options.onIncomplete?.(estimatedUsage(this.input, this.run.model, outputCharacters, this.prices), this.run.model);
  }
}

/**
 * An open-model inference server (vLLM, SGLang, llama-server, LM Studio, Ollama) answers this model:
 * its text may carry the family's call markup when it did not parse it. Not a first-party API, and not
 * an unidentified server, whose replies go on as they come.
 */
function serverMayLeaveMarkup(model: ResolvedModel): boolean {
  return model.server !== undefined && model.server !== 'generic';
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
