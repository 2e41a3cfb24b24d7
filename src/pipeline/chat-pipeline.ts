/**
 * Runs one chat (and only that: providers by name are src/pipeline/provider-directory.ts): resolves the model
 * (or orders a deployment's targets), checks the key may use it, and hands the targets to the fallback loop
 * (src/pipeline/fallback-loop.ts), which plans each in its lane (src/pipeline/target-planner.ts) and returns
 * the neutral event stream every route renders. Streaming and non-streaming share it.
 */
import { normalizeAgentFormats } from '../config/normalize-config.js';
import { resolveModel } from '../config/resolve-model.js';
import type { Deployment } from '../config/config-types.js';
import type { ChatInput } from '../core/chat-request.js';
import type { ProviderContext } from '../core/provider-adapter.js';
import { RequestCaches } from '../core/request-caches.js';
import type { ResolvedModel } from '../core/resolved-model.js';
import type { AgentSyntaxRegistry } from '../core/agent-text-syntax.js';
import type { AgentFormatRequest, AgentFormatSelection } from './agent-format/agent-format.js';
import { AgentFormatSelector } from './agent-format/agent-format-selector.js';
import type { AccessPolicy } from './access-policy.js';
import type { ChatPipelineDependencies } from './chat-pipeline-dependencies.js';
import type { ChatRun, RunOptions } from './chat-run.js';
import { DeploymentBalancer, sessionKeyOf } from './deployment-balancer.js';
import { DeploymentTargets } from './deployment-observer.js';
import { allowedDeploymentTargets, orderedDeploymentTargets, refuseDeployment } from './deployment-order.js';
import { FallbackLoop } from './fallback-loop.js';
import { FallbackTargets } from './fallback-targets.js';
import { ProviderDirectory } from './provider-directory.js';
import { TargetPlanner } from './target-planner.js';
import { validateChatInput } from './validate-chat-input.js';
import { WholeReplyDeadlines } from './whole-reply-bound.js';

const noAgentSyntaxes: AgentSyntaxRegistry = {
  syntaxes: new Map(),
  custom: () => {
    throw new Error('no text syntaxes are registered');
  },
};

export class ChatPipeline {
  private readonly agentFormats: AgentFormatSelector;
  private readonly fallbacks: FallbackTargets;
  private readonly caches: RequestCaches;
  private readonly balancer: DeploymentBalancer;
  private readonly targets: FallbackLoop;

  constructor(private readonly dependencies: ChatPipelineDependencies) {
    this.caches = dependencies.caches ?? new RequestCaches();
    const providers = new ProviderDirectory(dependencies.config, dependencies.providers);
    this.agentFormats = new AgentFormatSelector(
      dependencies.config.agentFormats ?? normalizeAgentFormats(undefined),
      dependencies.agentSyntaxes ?? noAgentSyntaxes,
    );
    this.fallbacks = new FallbackTargets(dependencies.config, (modelString) => this.resolve(modelString));
    this.balancer = dependencies.balancer ?? new DeploymentBalancer();
    this.wholeReplyDeadlines = new WholeReplyDeadlines(dependencies.config.server.wholeReplyTimeoutMs);
    const planner = new TargetPlanner(dependencies, providers, this.caches);
    this.targets = new FallbackLoop(planner, providers, this.fallbacks, dependencies);
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
   * The one target of a request that is not a chat (count_tokens; embeddings try every target:
   * embedding-pipeline.ts), found as a chat's first would be. A deployment name (used like an alias) picks the
   * first of the targets a chat would try, in the same order and with the same resolution and key filter
   * (orderedDeploymentTargets); `deployment` then names it. Anything else resolves as a chat's model does
   * (`providerName`: the /{provider}/v1/… routes, where no deployment applies). The key's models are checked
   * either way (403 model_not_allowed).
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
    const resolve = (model: string) => this.resolve(model);
    const [first] = orderedDeploymentTargets(this.balancer, resolve, { deployment, name: modelString, access: access ?? undefined });
    const model = first as ResolvedModel;
    return { model, deployment: `${model.provider}/${model.model}` };
  }

  /**
   * Resolves after the upstream accepted the request (2xx headers); earlier failures reject. The fallback
   * loop sits above planning: each target is planned from the client's own request.
   */
  run(input: ChatInput, context: ProviderContext, options: RunOptions = {}): Promise<ChatRun> {
    // Not an async function: it would wrap the fallback loop's promise in one more (a promise and a microtask per request).
    try {
      validateChatInput(input, this.caches);
      const deployment = input.provider === undefined ? this.dependencies.config.deployments?.get(input.model) : undefined;
      if (deployment) return this.runDeployment(deployment, input, context, options);
      const primary = this.resolve(input.model, input.provider);
      options.access?.checkModel(primary);
      return this.targets.run(primary, this.fallbacks.after(primary, options.access), input, context, options);
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
    const sessionKey = deployment.sessionAffinity ? sessionKeyOf(input, options.sessionId) : undefined;
    const request = { deployment, name: input.model, access, sessionKey };
    const { allowed, resolved } = allowedDeploymentTargets(this.balancer, (model) => this.resolve(model), request);
    // The key's models filter the whole candidate list, targets then the name's fallbacks: a key allowed
    // none of the targets may still be allowed a fallback, and is refused only when nothing is left.
    const candidates = [...allowed, ...this.fallbacks.afterName(input.model, access)];
    if (candidates.length === 0) refuseDeployment(resolved, request);
    const [primary, ...others] = candidates as [ResolvedModel, ...ResolvedModel[]];
    const observer = new DeploymentTargets(this.balancer, deployment, allowed);
    return this.targets.run(primary, others, input, context, options, observer);
  }
}
