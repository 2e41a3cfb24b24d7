/**
 * Deployment health shared by the replicas on one Redis, so that they balance together. No request waits
 * on Redis for it: each replica reads and writes once a second.
 *
 * - Cooldowns: a replica that sees a target fail counts the failure in a window as long as the
 *   deployment's cooldown; every replica rests the targets that failed anywhere.
 * - Load: every second each replica adds its requests in flight per target, and its smoothed latency (per output token),
 *   to counters for that second (a key per epoch second); each replica reads the second before, whose
 *   counters every replica has written by then, and takes away its own part. `least-busy` then ranks by
 *   the requests in flight on every replica, `latency` by the replicas' mean.
 */
import type { Deployment } from '../config/config-types.js';
import type { Logger } from '../core/logger.js';
import { isPromise, type WindowCounter } from '../state/limit-counters.js';
import type { SharedState } from '../state/shared-state.js';
import type { DeploymentBalancer } from '../pipeline/deployment-balancer.js';

const syncEveryMs = 1_000;

/** A second's load counters outlive the second that reads them. */
const loadWindowSeconds = 5;

/**
 * Latencies (milliseconds per output token) are summed in whole microseconds: the counters hold integers,
 * and a fast server's figure is a fraction of a millisecond.
 */
const latencyUnitsPerMs = 1_000;

export type DeploymentHealthSharing = { close(): void };

/** What this replica wrote for one target in one second, to take away from the sums it reads back. */
type OwnPart = { inFlight: number; latencyUnits: number; latencyCount: number };

export function shareDeploymentHealth(
  balancer: DeploymentBalancer,
  state: SharedState,
  deployments: ReadonlyMap<string, Deployment>,
  log: Pick<Logger, 'warn'>,
): DeploymentHealthSharing {
  const failureCounters = new Map<number, WindowCounter>();
  const failureCounterOf = (deployment: Deployment): WindowCounter => {
    const seconds = Math.max(1, Math.ceil(deployment.cooldownMs / 1000));
    let counter = failureCounters.get(seconds);
    if (!counter) {
      counter = state.windowCounter({ name: `deployment-failures:${seconds}`, points: Number.MAX_SAFE_INTEGER, durationSeconds: seconds });
      failureCounters.set(seconds, counter);
    }
    return counter;
  };
  const load = state.windowCounter({ name: 'deployment-load', points: Number.MAX_SAFE_INTEGER, durationSeconds: loadWindowSeconds });
  const keyOf = (deployment: Deployment, model: string) => `${deployment.name}\u0000${model}`;
  balancer.onFailure((deployment, model) => {
    const added = failureCounterOf(deployment).add(keyOf(deployment, model), 1);
    if (isPromise(added))
      added.catch((error: unknown) => log.warn({ error: (error as Error).message }, 'sharing a deployment failure failed'));
  });

  /** This replica's part of each second's sums, kept for the two seconds that read them. */
  const ownParts = new Map<number, Map<string, OwnPart>>();

  const publish = async (second: number) => {
    // Timers never fire early, so this is rare; a second written twice would count this replica twice.
    if (ownParts.has(second)) return;
    const parts = new Map<string, OwnPart>();
    ownParts.set(second, parts);
    for (const key of ownParts.keys()) if (key < second - 1) ownParts.delete(key);
    const writes: Promise<unknown>[] = [];
    for (const deployment of deployments.values())
      for (const target of deployment.targets) {
        const own = balancer.ownLoad(deployment, target.model);
        const key = `${keyOf(deployment, target.model)}\u0000${second}`;
        const part: OwnPart = { inFlight: own.inFlight, latencyUnits: 0, latencyCount: 0 };
        if (own.inFlight > 0) writes.push(Promise.resolve(load.add(`${key}\u0000in-flight`, own.inFlight)));
        if (own.latencyMsPerToken !== undefined) {
          part.latencyUnits = Math.round(own.latencyMsPerToken * latencyUnitsPerMs);
          part.latencyCount = 1;
          writes.push(Promise.resolve(load.add(`${key}\u0000latency-sum`, part.latencyUnits)));
          writes.push(Promise.resolve(load.add(`${key}\u0000latency-count`, 1)));
        }
        parts.set(keyOf(deployment, target.model), part);
      }
    await Promise.all(writes);
  };

  const readOthers = async (second: number) => {
    const own = ownParts.get(second);
    for (const deployment of deployments.values())
      for (const target of deployment.targets) {
        const failures = await failureCounterOf(deployment).read(keyOf(deployment, target.model));
        if (failures.consumedPoints > 0 && failures.msBeforeNext > 0) balancer.restUntil(deployment, target.model, failures.msBeforeNext);
        // A replica that started this second wrote nothing for the one before: its own part is then unknown, so it waits.
        const part = own?.get(keyOf(deployment, target.model));
        if (!part) continue;
        const key = `${keyOf(deployment, target.model)}\u0000${second}`;
        const [inFlight, latencySum, latencyCount] = await Promise.all([
          load.read(`${key}\u0000in-flight`),
          load.read(`${key}\u0000latency-sum`),
          load.read(`${key}\u0000latency-count`),
        ]);
        const othersCount = latencyCount.consumedPoints - part.latencyCount;
        balancer.othersLoad(deployment, target.model, {
          inFlight: Math.max(0, inFlight.consumedPoints - part.inFlight),
          latencyMsPerToken:
            othersCount > 0 ? (latencySum.consumedPoints - part.latencyUnits) / latencyUnitsPerMs / othersCount : undefined,
          replicas: Math.max(0, othersCount),
        });
      }
  };

  const sync = async () => {
    const second = Math.floor(Date.now() / 1000);
    await publish(second);
    await readOthers(second - 1);
  };
  const timer = setInterval(() => {
    sync().catch((error: unknown) => log.warn({ error: (error as Error).message }, 'sharing deployment health failed'));
  }, syncEveryMs);
  timer.unref();
  return { close: () => clearInterval(timer) };
}
