/**
 * Concurrent-stream slots in Redis are leases: a replica that stops heart-beating (killed, or its
 * connection gone) without giving its slots back leaks them only until its leases expire; a live one
 * keeps them as long as its streams last, and gives them back at once when they end.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { defaultState } from '../../src/config/normalize-state.js';
import { silentLogger } from '../../src/core/logger.js';
import { createRedisState } from '../../src/state/redis-state.js';
import type { RedisState } from '../../src/state/shared-state.js';
import { startFakeOpenAiUpstream, type FakeOpenAiUpstream } from '../helpers/fake-openai-upstream.js';
import { sleep } from '../helpers/loopback-server.js';
import { redisServerPath, warnWhenRedisIsMissing } from '../helpers/redis-server.js';
import { startGateway, testProvider, type StartedGateway } from '../helpers/start-gateway.js';
import { useRedisServer } from '../helpers/use-redis-server.js';

warnWhenRedisIsMissing('the stream lease tests');

const streamsKey = 'sk-streams-0123456789';
const leaseSeconds = 2;

describe.skipIf(!redisServerPath)('stream slots in Redis', () => {
  const redis = useRedisServer();
  let upstream: FakeOpenAiUpstream;
  let gateway: StartedGateway;
  const otherReplicas: RedisState[] = [];

  beforeAll(async () => {
    upstream = await startFakeOpenAiUpstream();
    upstream.respondWith(() => ({ type: 'chat', content: 'ok' }));
    gateway = await startGateway({
      server: { apiKeys: [{ key: streamsKey, name: 'streams', limits: { concurrentStreams: 1 } }] },
      providers: { local: testProvider('openai-compatible', `${upstream.url}/v1`, { toolCalling: 'native' }) },
      state: { redis: redis.server.url, streamLeaseSeconds: leaseSeconds },
    });
  });

  afterEach(async () => {
    await Promise.all(otherReplicas.splice(0).map((replica) => replica.close()));
  });

  afterAll(async () => {
    await gateway?.close();
    await upstream?.close();
  });

  /** Another replica of the same deployment: its own connection, its own leases, the same Redis keys. */
  async function otherReplica(): Promise<RedisState> {
    const replica = createRedisState({ ...defaultState, redis: redis.server.url, streamLeaseSeconds: leaseSeconds }, silentLogger);
    otherReplicas.push(replica);
    await replica.connect();
    return replica;
  }

  async function streamStatus(): Promise<number> {
    const response = await fetch(`${gateway.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${streamsKey}` },
      body: JSON.stringify({ model: 'local/m', messages: [{ role: 'user', content: 'hi' }], stream: true }),
    });
    await response.text();
    return response.status;
  }

  async function waitForStatus(status: number): Promise<number> {
    let seen = await streamStatus();
    for (let attempt = 0; seen !== status && attempt < 100; attempt++) {
      await sleep(50);
      seen = await streamStatus();
    }
    return seen;
  }

  it('frees the slots of a replica that dies holding them once its leases expire', async () => {
    const replica = await otherReplica();
    const lease = await replica.streamSlots('key:streams').acquire('streams', 1);
    expect(lease).toBeDefined();
    expect(await streamStatus()).toBe(429);
    // The replica dies: no release, no more heartbeats.
    await replica.close();
    expect(await waitForStatus(200)).toBe(200);
  });

  it('keeps the slot of a live stream past its lease, with heartbeats, and gives it back when it ends', async () => {
    const replica = await otherReplica();
    const lease = await replica.streamSlots('key:streams').acquire('streams', 1);
    expect(lease).toBeDefined();
    // Three leases long: only the heartbeat can have kept it.
    await sleep(leaseSeconds * 3000);
    expect(await streamStatus()).toBe(429);
    await lease?.release();
    expect(await streamStatus()).toBe(200);
  });

  it('counts slots across replicas up to the limit, and a refusal takes none', async () => {
    const first = await otherReplica();
    const second = await otherReplica();
    const slots = [first.streamSlots('key:streams'), second.streamSlots('key:streams')];
    const taken = await slots[0]!.acquire('limit-two', 2);
    expect(await slots[1]!.acquire('limit-two', 2)).toBeDefined();
    expect(await slots[1]!.acquire('limit-two', 2)).toBeUndefined();
    await taken?.release();
    expect(await slots[1]!.acquire('limit-two', 2)).toBeDefined();
  });
});
