/**
 * Deployment cooldowns shared by the replicas on one Redis: a replica that sees a target fail counts the
 * failure in the shared state, in a window as long as the deployment's cooldown; every replica reads
 * those counts once a second and rests the targets that failed anywhere. No request waits on Redis for
 * it, so a failure seen by one replica reaches the others within about a second. (Requests in flight
 * and latencies stay each replica's own: they change with every request.)
 */
import type { Deployment } from '../config/config-types.js';
import type { Logger } from '../core/logger.js';
import { isPromise, type WindowCounter } from '../state/limit-counters.js';
import type { SharedState } from '../state/shared-state.js';
import type { DeploymentBalancer } from '../pipeline/deployment-balancer.js';

const syncEveryMs = 1_000;

export type CooldownSharing = { close(): void };

export function shareCooldowns(
  balancer: DeploymentBalancer,
  state: SharedState,
  deployments: ReadonlyMap<string, Deployment>,
  log: Pick<Logger, 'warn'>,
): CooldownSharing {
  const counters = new Map<number, WindowCounter>();
  const counterOf = (deployment: Deployment): WindowCounter => {
    const seconds = Math.max(1, Math.ceil(deployment.cooldownMs / 1000));
    let counter = counters.get(seconds);
    if (!counter) {
      counter = state.windowCounter({ name: `deployment-failures:${seconds}`, points: Number.MAX_SAFE_INTEGER, durationSeconds: seconds });
      counters.set(seconds, counter);
    }
    return counter;
  };
  const keyOf = (deployment: Deployment, model: string) => `${deployment.name}\u0000${model}`;
  balancer.onFailure((deployment, model) => {
    const added = counterOf(deployment).add(keyOf(deployment, model), 1);
    if (isPromise(added))
      added.catch((error: unknown) => log.warn({ error: (error as Error).message }, 'sharing a deployment failure failed'));
  });
  const sync = async () => {
    for (const deployment of deployments.values())
      for (const target of deployment.targets) {
        const count = await counterOf(deployment).read(keyOf(deployment, target.model));
        if (count.consumedPoints > 0 && count.msBeforeNext > 0) balancer.restUntil(deployment, target.model, count.msBeforeNext);
      }
  };
  const timer = setInterval(() => {
    sync().catch((error: unknown) => log.warn({ error: (error as Error).message }, 'reading shared deployment failures failed'));
  }, syncEveryMs);
  timer.unref();
  return { close: () => clearInterval(timer) };
}
