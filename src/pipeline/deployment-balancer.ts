/**
 * Chooses, per request, the order in which a deployment's targets are tried: the healthy ones by the
 * deployment's strategy, then those cooling down after a failure (least recently failed first), so
 * that a request is refused only when every target has failed it. Built once in app.ts; its memory of
 * each target (requests in flight, smoothed latency, last failure) lives as long as the gateway.
 */
import type { Deployment } from '../config/config-types.js';
import type { ChatInput } from '../core/chat-request.js';

type TargetHealth = {
  inFlight: number;
  /**
   * Smoothed time of a whole generation per output token (ms), from sending the request to the reply's
   * finish; undefined until a reply of the target first finished. See DeploymentBalancer.measured.
   */
  latencyMsPerToken: number | undefined;
  coolUntil: number;
  lastFailedAt: number;
  /** What the other replicas on the shared state last said of this target (src/plugins/shared-deployment-health.ts). */
  others: OthersLoad | undefined;
  /** When `others` was heard: older than a few seconds, it is stale and ignored. */
  othersHeardAt: number;
};

/** The other replicas' load on one target: requests in flight on all of them, their mean latency, and how many measured it. */
export type OthersLoad = { inFlight: number; latencyMsPerToken: number | undefined; replicas: number };

/** The other replicas' figures are written every second: three missed writes make them stale. */
const othersStaleAfterMs = 3_000;

/** How much one new latency sample moves the smoothed value: recent enough to follow a slowing server. */
const latencySmoothing = 0.3;

/** Below any difference two in-flight counts over weights can make. */
const tieBreak = 1e-9;

/**
 * Where `latency` ranks a target whose first measure is under way (ms per output token): slower than any
 * server, so that it waits behind every measured target, yet small enough that tieBreak still counts.
 */
const beingMeasured = 1e6;

export type BalancerClock = { now(): number; random(): number };

const systemClock: BalancerClock = { now: () => performance.now(), random: Math.random };

export class DeploymentBalancer {
  /** By deployment, then target: two lookups, and no key string built per call. */
  private readonly health = new Map<Deployment, Map<string, TargetHealth>>();
  private failureListener: ((deployment: Deployment, model: string) => void) | undefined;

  constructor(private readonly clock: BalancerClock = systemClock) {}

  /** The targets' models (`provider/model`) in the order to try them. */
  order(deployment: Deployment, sessionKey?: string): string[] {
    const now = this.clock.now();
    // A deployment has a handful of targets: insertion into two sorted lists, no objects per target.
    const healthy: string[] = [];
    const healthyRanks: number[] = [];
    const cooling: string[] = [];
    const coolingSince: number[] = [];
    for (const target of deployment.targets) {
      const health = this.healthOf(deployment, target.model);
      if (health.coolUntil > now) insertSorted(cooling, coolingSince, target.model, health.lastFailedAt);
      else insertSorted(healthy, healthyRanks, target.model, this.rank(deployment, target, health, sessionKey));
    }
    for (const model of cooling) healthy.push(model);
    return healthy;
  }

  /** A request was sent to the target. */
  started(deployment: Deployment, model: string): void {
    this.healthOf(deployment, model).inFlight++;
  }

  /**
   * A reply of the target finished: its whole generation took this long per output token. Why this measure:
   * the `latency` strategy is to send a request where it will be done soonest. Time to the response headers
   * says little of that (a streaming server sends them before it even reads the prompt, a non-streamed
   * reply's come only after the last token), and a whole generation's time says more of the reply's length
   * than of the server. Per output token, from sending to the finish, it is the same figure for streamed and
   * whole replies, and it counts queueing, prompt processing and generation: what a client waits for.
   */
  measured(deployment: Deployment, model: string, msPerToken: number): void {
    const health = this.healthOf(deployment, model);
    const smoothed = health.latencyMsPerToken;
    health.latencyMsPerToken = smoothed === undefined ? msPerToken : smoothed + latencySmoothing * (msPerToken - smoothed);
  }

  /** The balancer's clock (milliseconds), which requests to its targets are timed by. */
  now(): number {
    return this.clock.now();
  }

  /** The request to the target is over, whichever way it ended. */
  ended(deployment: Deployment, model: string): void {
    const health = this.healthOf(deployment, model);
    if (health.inFlight > 0) health.inFlight--;
  }

  /** The target failed before answering (connect error, 5xx, timeout): it is skipped for the cooldown. */
  failed(deployment: Deployment, model: string): void {
    const health = this.healthOf(deployment, model);
    const now = this.clock.now();
    health.lastFailedAt = now;
    health.coolUntil = now + deployment.cooldownMs;
    this.failureListener?.(deployment, model);
  }

  /** Told of each failure this replica sees (src/plugins/shared-deployment-health.ts passes it to the others). */
  onFailure(listener: (deployment: Deployment, model: string) => void): void {
    this.failureListener = listener;
  }

  /**
   * The target rests here for `restMs` (never less than it already does): another replica saw it fail (what
   * is left of its cooldown), or it answered 429 with a retry-after (told to no other replica: a rate limit
   * may be this replica's key's alone).
   */
  restUntil(deployment: Deployment, model: string, restMs: number): void {
    const health = this.healthOf(deployment, model);
    const now = this.clock.now();
    if (health.coolUntil >= now + restMs) return;
    health.coolUntil = now + restMs;
    health.lastFailedAt = Math.max(health.lastFailedAt, now - (deployment.cooldownMs - restMs));
  }

  /** This replica's requests in flight on the target and its smoothed latency, for the other replicas. */
  ownLoad(deployment: Deployment, model: string): { inFlight: number; latencyMsPerToken: number | undefined } {
    const health = this.healthOf(deployment, model);
    return { inFlight: health.inFlight, latencyMsPerToken: health.latencyMsPerToken };
  }

  /** The other replicas' load on the target, as the shared state last told it. */
  othersLoad(deployment: Deployment, model: string, others: OthersLoad): void {
    const health = this.healthOf(deployment, model);
    health.others = others;
    health.othersHeardAt = this.clock.now();
  }

  /** Lower goes first. Ties and the weighted strategy are broken by a weighted random draw. */
  private rank(deployment: Deployment, target: { model: string; weight: number }, health: TargetHealth, sessionKey?: string): number {
    // Efraimidis–Spirakis: sorting by -u^(1/w) is a weighted random order; with a session key u comes
    // from a hash of the key and the target (rendezvous hashing), so one conversation keeps its target
    // while that target is healthy, and moves to the next one only when it is not.
    const draw = sessionKey === undefined ? this.clock.random() : unitHash(`${sessionKey}\u0000${target.model}`);
    const weighted = -(draw ** (1 / target.weight));
    if (sessionKey !== undefined) return weighted;
    switch (deployment.strategy) {
      case 'weighted':
        return weighted;
      case 'least-busy':
        // Requests in flight per unit of weight (a weight is a capacity here) decide; the draw, scaled
        // far below one request's difference, only breaks ties.
        return (health.inFlight + (this.freshOthers(health)?.inFlight ?? 0)) / target.weight + weighted * tieBreak;
      case 'latency': {
        const others = this.freshOthers(health);
        const latencyMsPerToken = meanLatency(health.latencyMsPerToken, others);
        const inFlight = health.inFlight + (others?.inFlight ?? 0);
        // Measured targets rank from 0 up, their latency scaled by the requests already waiting on them
        // (per unit of weight, a capacity as under least-busy; Finagle's "peak EWMA" cost): the latency moves
        // only when a reply finishes, so a fast server that hangs would otherwise take every request until
        // they timed out. The draw, scaled far below any real difference, only breaks ties.
        if (latencyMsPerToken !== undefined) return latencyMsPerToken * (1 + inFlight / target.weight) + (1 + weighted) * tieBreak;
        // A target not yet measured (here or anywhere) is tried first, so every target gets measured (the
        // draws are negative). One whose first request is under way waits behind the measured ones (the
        // least loaded first): a slow or hung server would otherwise take every request until it answered.
        return inFlight === 0 ? weighted : beingMeasured + inFlight / target.weight + weighted * tieBreak;
      }
    }
  }

  private freshOthers(health: TargetHealth): OthersLoad | undefined {
    return health.others && this.clock.now() - health.othersHeardAt < othersStaleAfterMs ? health.others : undefined;
  }

  private healthOf(deployment: Deployment, model: string): TargetHealth {
    let targets = this.health.get(deployment);
    if (!targets) {
      targets = new Map();
      this.health.set(deployment, targets);
    }
    let health = targets.get(model);
    if (!health) {
      health = { inFlight: 0, latencyMsPerToken: undefined, coolUntil: 0, lastFailedAt: 0, others: undefined, othersHeardAt: 0 };
      targets.set(model, health);
    }
    return health;
  }
}

/**
 * What ties a request to its conversation, most explicit first: the client's session header, OpenAI's
 * `prompt_cache_key` (the field OpenAI routes on for its own prompt cache), the client's `user` (or the
 * Messages API's `metadata.user_id`), else the conversation's opening (system prompt and first user
 * turn), which every later turn repeats.
 */
export function sessionKeyOf(input: ChatInput, sessionId?: string): string {
  if (sessionId) return `session:${sessionId}`;
  const promptCacheKey = input.openaiExtras?.prompt_cache_key;
  if (typeof promptCacheKey === 'string' && promptCacheKey) return `cache:${promptCacheKey}`;
  if (input.user) return `user:${input.user}`;
  const system = input.messages.find((message) => message.role === 'system');
  const firstUser = input.messages.find((message) => message.role === 'user');
  const userText =
    firstUser?.role === 'user' ? firstUser.content.map((part) => (part.type === 'text' ? part.text : part.data.length)).join('') : '';
  return `opening:${system?.role === 'system' ? system.content : ''}\u0000${userText}`;
}

/** The mean of this replica's latency and the other replicas' mean, each replica counted once. */
function meanLatency(ownMs: number | undefined, others: OthersLoad | undefined): number | undefined {
  if (!others || others.latencyMsPerToken === undefined || others.replicas === 0) return ownMs;
  if (ownMs === undefined) return others.latencyMsPerToken;
  return (ownMs + others.latencyMsPerToken * others.replicas) / (others.replicas + 1);
}

/** Inserts `model` into `models`, kept in ascending order of `keys` (ties keep their arrival order). */
function insertSorted(models: string[], keys: number[], model: string, key: number): void {
  let position = keys.length;
  while (position > 0 && (keys[position - 1] as number) > key) position--;
  models.splice(position, 0, model);
  keys.splice(position, 0, key);
}

/** FNV-1a over the string's UTF-16 units, mapped into (0, 1): cheap, stable across replicas and restarts. */
function unitHash(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  // A final avalanche so that keys differing only in their last characters spread over the range.
  hash ^= hash >>> 15;
  hash = Math.imul(hash, 0x2c1b3c6d);
  hash ^= hash >>> 12;
  return ((hash >>> 0) + 0.5) / 0x1_0000_0000;
}
