/**
 * A request's ordered fallbacks: the targets configured for the model that failed, each resolved (aliases
 * too) and checked against the client key's policy, a target the key may not use being skipped; and
 * whether a failure hands over to the next one (`fallbackOn`).
 */
import type { FallbackCondition } from '../config/config-types.js';
import { defaultFallbackOn, fallbackKey } from '../config/normalize-fallbacks.js';
import type { ResolvedModel } from '../core/resolved-model.js';
import type { UpstreamFailure } from '../http/upstream-failure.js';
import type { AccessPolicy } from './access-policy.js';

export type FallbackSettings = {
  fallbacks?: ReadonlyMap<string, readonly string[]> | undefined;
  fallbackOn?: readonly FallbackCondition[] | undefined;
};

const noTargets: readonly ResolvedModel[] = [];

export class FallbackTargets {
  private readonly fallbacks: ReadonlyMap<string, readonly string[]>;
  private readonly conditions: readonly FallbackCondition[];

  constructor(
    settings: FallbackSettings,
    private readonly resolve: (modelString: string) => ResolvedModel,
  ) {
    this.fallbacks = settings.fallbacks ?? new Map();
    this.conditions = settings.fallbackOn ?? defaultFallbackOn;
  }

  /** The targets after `primary`, in order, that the key may use (empty without fallbacks: the common case). */
  after(primary: ResolvedModel, access: AccessPolicy | undefined): readonly ResolvedModel[] {
    return this.fallbacks.size === 0 ? noTargets : this.afterName(fallbackKey(primary), access);
  }

  /** The targets configured after a name that is not itself a target (a deployment's name). */
  afterName(name: string, access: AccessPolicy | undefined): readonly ResolvedModel[] {
    const targets = this.fallbacks.size === 0 ? undefined : this.fallbacks.get(name);
    if (!targets) return noTargets;
    return targets.map(this.resolve).filter((target) => !access || access.allowsModel(fallbackKey(target)));
  }

  handsOver(failure: UpstreamFailure): boolean {
    return this.conditions.some((condition) => {
      if (condition === 'timeout' || condition === 'connect') return failure.type === condition;
      if (failure.type !== 'status') return false;
      return condition === '5xx' ? failure.status >= 500 : failure.status === condition;
    });
  }
}
