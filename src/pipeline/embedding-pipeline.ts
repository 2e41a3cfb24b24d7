/**
 * Runs one embeddings request: its model resolved as a chat's is (an alias, a `provider/model`, a
 * deployment), the key's models checked, and the upstream called with its provider's retries. A
 * deployment's targets are tried in the balancer's order with the chats' rules (src/pipeline/try-targets.ts):
 * a target that fails before answering rests for its cooldown and the next one is tried, and the balancer
 * counts each target's requests in flight. The name's `fallbacks` are not: they name other models, whose
 * vectors do not compare with the ones a client already stored; a deployment's targets serve one model.
 * A reply read whole, it is bounded in time as a non-streamed chat's is (`server.wholeReplyTimeoutMs`,
 * armed by the route with `wholeReplyDeadlines`).
 */
import type { GatewayConfig } from '../config/config-types.js';
import { defaultRetries } from '../config/normalize-config.js';
import { gatewayError } from '../core/gateway-error.js';
import type { EmbeddingRequest, EmbeddingResult } from '../core/provider-adapter.js';
import type { ResolvedModel } from '../core/resolved-model.js';
import type { AccessPolicy } from './access-policy.js';
import type { DeploymentBalancer } from './deployment-balancer.js';
import { DeploymentTargets } from './deployment-observer.js';
import { orderedDeploymentTargets } from './deployment-order.js';
import { FallbackTargets } from './fallback-targets.js';
import type { ProviderDirectory } from './provider-directory.js';
import { callWithRetries, type ResilienceObserver } from './stream-with-retries.js';
import { tryTargets, type TargetTries } from './try-targets.js';
import { WholeReplyDeadlines } from './whole-reply-bound.js';

export type EmbeddingPipelineDependencies = {
  config: Pick<GatewayConfig, 'deployments' | 'fallbackOn' | 'server'>;
  providers: ProviderDirectory;
  /** Resolves a model string as a chat's is (the chat pipeline's resolve). */
  resolve: (modelString: string) => ResolvedModel;
  /** The chats' balancer: one memory of each target's health and load. */
  balancer: DeploymentBalancer;
  /** Counts retries, fallbacks and upstream errors (the app's metrics). */
  resilience?: ResilienceObserver;
};

/** What the client asked for, without the model (each target has its own). */
export type EmbeddingInput = Omit<EmbeddingRequest, 'model'>;

export type EmbeddingAnswer = {
  result: EmbeddingResult;
  /** The target that answered. */
  model: ResolvedModel;
  /** The deployment target that answered (`provider/model`), when the model named a deployment. */
  deployment?: string;
};

export class EmbeddingPipeline {
  /** Hand-over conditions only (`fallbackOn`): no `fallbacks` list is read here (why: the file's comment). */
  private readonly handOver: FallbackTargets;

  /**
   * An embeddings request waits at most `server.wholeReplyTimeoutMs` (every retry and target included):
   * then its cancellation aborts with a 504. The route arms it, and disarms it once the reply was sent.
   */
  readonly wholeReplyDeadlines: WholeReplyDeadlines;

  constructor(private readonly dependencies: EmbeddingPipelineDependencies) {
    this.handOver = new FallbackTargets({ fallbackOn: dependencies.config.fallbackOn }, dependencies.resolve);
    this.wholeReplyDeadlines = new WholeReplyDeadlines(
      dependencies.config.server.wholeReplyTimeoutMs,
      'send fewer or shorter inputs per request to wait less',
    );
  }

  /** Rejects with the last target's error when none answered; `tries.progress` then says what was tried. */
  async embed(
    modelString: string,
    input: EmbeddingInput,
    access: AccessPolicy | undefined,
    tries: Pick<TargetTries, 'context' | 'progress'>,
  ): Promise<EmbeddingAnswer> {
    const { balancer, resolve, resilience } = this.dependencies;
    const deployment = this.dependencies.config.deployments?.get(modelString);
    const targets = deployment
      ? this.embeddingTargets(orderedDeploymentTargets(balancer, resolve, { deployment, name: modelString, access }), modelString)
      : [resolve(modelString)];
    if (!deployment) access?.checkModel(targets[0] as ResolvedModel);
    const observer = deployment ? new DeploymentTargets(balancer, deployment, targets) : undefined;
    const fallbacks = this.handOver;
    const answer = await tryTargets(targets, (target) => this.call(target, input, tries), { ...tries, fallbacks, resilience, observer });
    observer?.answeredUntimed(answer.target);
    const { result, target } = answer;
    return deployment ? { result, model: target, deployment: `${target.provider}/${target.model}` } : { result, model: target };
  }

  /**
   * A deployment's targets whose provider has an embeddings endpoint: one that mixes providers (a chat
   * deployment with an Anthropic target) serves embeddings on the others rather than stopping at a 400 on
   * the first. None that can: 400 `embeddings_unsupported`, naming the deployment.
   */
  private embeddingTargets(targets: readonly ResolvedModel[], name: string): ResolvedModel[] {
    const { providers } = this.dependencies;
    const able = targets.filter((target) => providers.adapter(target.provider).embed !== undefined);
    if (able.length > 0) return able;
    throw gatewayError('embeddings_unsupported', {
      message: `No target of deployment '${name}' has an embeddings endpoint (${targets.map((target) => `${target.provider}/${target.model}`).join(', ')}).`,
      param: 'model',
    });
  }

  /** One target's request, with its provider's retries. */
  private call(target: ResolvedModel, input: EmbeddingInput, tries: Pick<TargetTries, 'context' | 'progress'>): Promise<EmbeddingResult> {
    const { providers, resilience } = this.dependencies;
    const adapter = providers.adapter(target.provider);
    const embed = adapter.embed?.bind(adapter);
    if (!embed) {
      throw gatewayError('embeddings_unsupported', {
        message: `Provider '${target.provider}' (${target.providerType}) has no embeddings endpoint.`,
        param: 'model',
      });
    }
    const request: EmbeddingRequest = { ...input, model: target.model };
    const retries = {
      settings: providers.config(target.provider).retries ?? defaultRetries,
      attempts: tries.progress,
      observer: resilience,
    };
    return callWithRetries(() => embed(request, tries.context), target, tries.context, retries);
  }
}
