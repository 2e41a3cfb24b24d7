import { describe, expect, it } from 'vitest';
import type { Deployment, DeploymentStrategy } from '../../src/config/config-types.js';
import { DeploymentBalancer, sessionKeyOf, type BalancerClock } from '../../src/pipeline/deployment-balancer.js';

/** A clock the test moves, and a seeded generator (mulberry32) so that shares are reproducible. */
function testClock(seed = 7): BalancerClock & { advance(ms: number): void } {
  let now = 1_000;
  let state = seed;
  return {
    now: () => now,
    advance: (ms) => void (now += ms),
    random: () => {
      state = (state + 0x6d2b79f5) | 0;
      let mixed = Math.imul(state ^ (state >>> 15), 1 | state);
      mixed = (mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed)) ^ mixed;
      return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
    },
  };
}

function deployment(strategy: DeploymentStrategy, weights: number[], extra: Partial<Deployment> = {}): Deployment {
  return {
    name: 'coder',
    strategy,
    targets: weights.map((weight, index) => ({ model: `box${index + 1}/m`, weight })),
    cooldownMs: 30_000,
    sessionAffinity: false,
    ...extra,
  };
}

function shares(balancer: DeploymentBalancer, target: Deployment, requests: number): Record<string, number> {
  const counts: Record<string, number> = {};
  for (let index = 0; index < requests; index++) {
    const first = balancer.order(target)[0] as string;
    counts[first] = (counts[first] ?? 0) + 1;
  }
  return counts;
}

describe('DeploymentBalancer', () => {
  it('weighted: shares follow the weights, and every target is in the order', () => {
    const balancer = new DeploymentBalancer(testClock());
    const target = deployment('weighted', [2, 1, 1]);
    expect(balancer.order(target).sort()).toEqual(['box1/m', 'box2/m', 'box3/m']);
    const counts = shares(balancer, target, 20_000);
    expect((counts['box1/m'] ?? 0) / 20_000).toBeCloseTo(0.5, 1);
    expect((counts['box2/m'] ?? 0) / 20_000).toBeCloseTo(0.25, 1);
    expect((counts['box3/m'] ?? 0) / 20_000).toBeCloseTo(0.25, 1);
  });

  it('least-busy: the target with the fewest requests in flight goes first', () => {
    const balancer = new DeploymentBalancer(testClock());
    const target = deployment('least-busy', [1, 1, 1]);
    balancer.started(target, 'box1/m');
    balancer.started(target, 'box1/m');
    balancer.started(target, 'box2/m');
    expect(balancer.order(target)).toEqual(['box3/m', 'box2/m', 'box1/m']);
    balancer.ended(target, 'box1/m');
    balancer.ended(target, 'box1/m');
    balancer.started(target, 'box3/m');
    balancer.started(target, 'box3/m');
    expect(balancer.order(target)[0]).toBe('box1/m');
  });

  it('least-busy: idle targets tie, and a tie is a weighted draw, so requests one at a time spread by weight', () => {
    const balancer = new DeploymentBalancer(testClock());
    const target = deployment('least-busy', [2, 1, 1]);
    // Nothing in flight: every order is a tie, broken as under weighted (not the first listed every time).
    const counts = shares(balancer, target, 20_000);
    expect((counts['box1/m'] ?? 0) / 20_000).toBeCloseTo(0.5, 1);
    expect((counts['box2/m'] ?? 0) / 20_000).toBeCloseTo(0.25, 1);
    expect((counts['box3/m'] ?? 0) / 20_000).toBeCloseTo(0.25, 1);
    // Equal load per unit of weight is a tie too: two in flight on box1 (weight 2), one on each of the others.
    balancer.started(target, 'box1/m');
    balancer.started(target, 'box1/m');
    balancer.started(target, 'box2/m');
    balancer.started(target, 'box3/m');
    const loaded = shares(balancer, target, 20_000);
    expect((loaded['box1/m'] ?? 0) / 20_000).toBeCloseTo(0.5, 1);
  });

  it('latency: untried targets first, then the lowest smoothed latency', () => {
    const balancer = new DeploymentBalancer(testClock());
    const target = deployment('latency', [1, 1, 1]);
    balancer.measured(target, 'box1/m', 300);
    balancer.measured(target, 'box2/m', 50);
    expect(balancer.order(target)[0]).toBe('box3/m');
    balancer.measured(target, 'box3/m', 120);
    expect(balancer.order(target)).toEqual(['box2/m', 'box3/m', 'box1/m']);
    // box2 slows down: the smoothed value follows it over a few samples.
    for (let sample = 0; sample < 6; sample++) balancer.measured(target, 'box2/m', 900);
    expect(balancer.order(target)).toEqual(['box3/m', 'box1/m', 'box2/m']);
  });

  it('latency: a target whose first request is under way waits behind the measured ones, not taking every request until it answers', () => {
    const balancer = new DeploymentBalancer(testClock());
    const target = deployment('latency', [1, 1, 1]);
    balancer.measured(target, 'box1/m', 20);
    // box2's first request is on its way (a slow server, or a hung one): box1, measured, goes first meanwhile.
    balancer.started(target, 'box2/m');
    expect(balancer.order(target)).toEqual(['box3/m', 'box1/m', 'box2/m']);
    balancer.started(target, 'box3/m');
    expect(balancer.order(target)[0]).toBe('box1/m');
    // Nothing measured yet, every target busy with its first request: the least loaded goes first.
    const fresh = deployment('latency', [1, 1]);
    balancer.started(fresh, 'box1/m');
    balancer.started(fresh, 'box1/m');
    balancer.started(fresh, 'box2/m');
    expect(balancer.order(fresh)).toEqual(['box2/m', 'box1/m']);
    // Its reply measured it: it ranks by its latency from then on.
    balancer.ended(target, 'box2/m');
    balancer.measured(target, 'box2/m', 5);
    expect(balancer.order(target)[0]).toBe('box2/m');
  });

  it('latency: requests in flight count, each per unit of weight, so a fast target that hangs stops taking the requests', () => {
    const balancer = new DeploymentBalancer(testClock());
    const target = deployment('latency', [1, 1]);
    balancer.measured(target, 'box1/m', 5);
    balancer.measured(target, 'box2/m', 20);
    expect(balancer.order(target)[0]).toBe('box1/m');
    // Four in flight on box1 (a server that hangs keeps them): 5 × (1 + 4) = 25 against box2's 20.
    for (let request = 0; request < 4; request++) balancer.started(target, 'box1/m');
    expect(balancer.order(target)).toEqual(['box2/m', 'box1/m']);
    // A weight is a capacity, as under least-busy: at weight 4, four in flight rank box1 as 5 × (1 + 1) = 10.
    const heavier = deployment('latency', [4, 1]);
    balancer.measured(heavier, 'box1/m', 5);
    balancer.measured(heavier, 'box2/m', 20);
    for (let request = 0; request < 4; request++) balancer.started(heavier, 'box1/m');
    expect(balancer.order(heavier)[0]).toBe('box1/m');
  });

  it('a failed target cools down behind the healthy ones, and returns when the cooldown ends', () => {
    const clock = testClock();
    const balancer = new DeploymentBalancer(clock);
    const target = deployment('weighted', [1, 1, 1], { cooldownMs: 10_000 });
    balancer.failed(target, 'box2/m');
    for (let index = 0; index < 50; index++) expect(balancer.order(target)[2]).toBe('box2/m');
    clock.advance(10_001);
    const counts = shares(balancer, target, 3_000);
    expect(counts['box2/m'] ?? 0).toBeGreaterThan(700);
  });

  it('all cooling down: the least recently failed is tried first', () => {
    const clock = testClock();
    const balancer = new DeploymentBalancer(clock);
    const target = deployment('weighted', [1, 1, 1]);
    balancer.failed(target, 'box3/m');
    clock.advance(10);
    balancer.failed(target, 'box1/m');
    clock.advance(10);
    balancer.failed(target, 'box2/m');
    expect(balancer.order(target)).toEqual(['box3/m', 'box1/m', 'box2/m']);
  });

  it("other replicas' load counts: their requests in flight for least-busy, their mean latency for latency, until it goes stale", () => {
    const clock = testClock();
    const balancer = new DeploymentBalancer(clock);
    const busy = deployment('least-busy', [1, 1]);
    balancer.started(busy, 'box1/m');
    // Here box2 is idle, but the other replicas hold three requests on it.
    balancer.othersLoad(busy, 'box2/m', { inFlight: 3, latencyMsPerToken: undefined, replicas: 2 });
    expect(balancer.order(busy)).toEqual(['box1/m', 'box2/m']);
    expect(balancer.ownLoad(busy, 'box1/m')).toEqual({ inFlight: 1, latencyMsPerToken: undefined });
    clock.advance(5_000);
    expect(balancer.order(busy)).toEqual(['box2/m', 'box1/m']);

    const fast = deployment('latency', [1, 1]);
    balancer.measured(fast, 'box1/m', 100);
    balancer.measured(fast, 'box2/m', 120);
    // Three other replicas measured box1 at 400 ms: the mean over four replicas is 325 ms.
    balancer.othersLoad(fast, 'box1/m', { inFlight: 0, latencyMsPerToken: 400, replicas: 3 });
    expect(balancer.order(fast)).toEqual(['box2/m', 'box1/m']);
    clock.advance(5_000);
    expect(balancer.order(fast)).toEqual(['box1/m', 'box2/m']);
  });

  it('session affinity: one conversation keeps its target, moves when it fails, and sessions spread', () => {
    const balancer = new DeploymentBalancer(testClock());
    const target = deployment('weighted', [1, 1, 1], { sessionAffinity: true });
    const first = balancer.order(target, 'user:alice')[0] as string;
    for (let index = 0; index < 20; index++) expect(balancer.order(target, 'user:alice')[0]).toBe(first);
    const spread = new Set(Array.from({ length: 60 }, (_, index) => balancer.order(target, `user:${index}`)[0]));
    expect(spread.size).toBe(3);
    const second = balancer.order(target, 'user:alice')[1] as string;
    balancer.failed(target, first);
    expect(balancer.order(target, 'user:alice')[0]).toBe(second);
  });

  it('the session key is the session header, else prompt_cache_key, else the client user, else the conversation opening that later turns repeat', () => {
    const opening = [
      { role: 'system' as const, content: 'You are a coder.' },
      { role: 'user' as const, content: [{ type: 'text' as const, text: 'fix the bug' }] },
    ];
    const later = [...opening, { role: 'assistant' as const, content: [{ type: 'text' as const, text: 'done' }] }];
    expect(sessionKeyOf({ model: 'coder', messages: opening })).toBe(sessionKeyOf({ model: 'coder', messages: later }));
    expect(sessionKeyOf({ model: 'coder', messages: opening, user: 'bob' })).toBe('user:bob');
    const cached = { model: 'coder', messages: opening, user: 'bob', openaiExtras: { prompt_cache_key: 'repo-42' } };
    expect(sessionKeyOf(cached)).toBe('cache:repo-42');
    expect(sessionKeyOf(cached, 'ses_1')).toBe('session:ses_1');
    expect(sessionKeyOf({ ...cached, openaiExtras: { prompt_cache_key: '' } })).toBe('user:bob');
  });
});
