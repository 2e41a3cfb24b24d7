/**
 * Memory per idle stream: opens streams that the fake upstream holds open after their first chunk,
 * and reads the proxy process's resident memory against a baseline taken after a warm-up.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Readable } from 'node:stream';
import { benchRequestBody } from './bench-requests.js';
import type { MemoryFigures } from './bench-figures.js';
import { createPool } from './contenders.js';

export type IdleStreamTarget = {
  name: string;
  url: string;
  path: string;
  model: string;
  rssKb(): number;
};

/** Opens one stream and resolves once its first body bytes arrived; the body is kept open, unread. */
async function openIdleStream(pool: ReturnType<typeof createPool>, path: string, body: Buffer): Promise<Readable> {
  const response = await pool.request({ method: 'POST', path, headers: { 'content-type': 'application/json' }, body });
  if (response.statusCode !== 200)
    throw new Error(`idle stream: HTTP ${response.statusCode}: ${(await response.body.text()).slice(0, 200)}`);
  await new Promise((resolve, reject) => response.body.once('data', resolve).once('error', reject));
  return response.body;
}

export async function measureIdleStreamMemory(target: IdleStreamTarget, counts: number[], settleMs = 1000): Promise<MemoryFigures[]> {
  const largest = Math.max(...counts);
  const pool = createPool(target.url, largest + 16);
  const body = benchRequestBody({ model: target.model, stream: true });
  const open: Readable[] = [];
  const openMore = async (count: number) => {
    open.push(...(await Promise.all(Array.from({ length: count }, () => openIdleStream(pool, target.path, body)))));
  };
  try {
    // A first batch pays for lazy initialisation (JIT, pools, heap growth), which is not per-stream cost.
    await openMore(Math.min(...counts));
    for (const stream of open.splice(0)) stream.destroy();
    await sleep(settleMs);
    const baselineRssKb = target.rssKb();
    const figures: MemoryFigures[] = [];
    let previous = { streams: 0, rssKb: baselineRssKb };
    for (const count of [...counts].sort((left, right) => left - right)) {
      await openMore(count - open.length);
      await sleep(settleMs);
      const rssKb = target.rssKb();
      const marginalKbPerStream = (rssKb - previous.rssKb) / (count - previous.streams);
      figures.push({
        process: target.name,
        streams: count,
        baselineRssKb,
        rssKb,
        kbPerStream: (rssKb - baselineRssKb) / count,
        marginalKbPerStream,
      });
      previous = { streams: count, rssKb };
    }
    return figures;
  } finally {
    for (const stream of open) stream.destroy();
    await pool.destroy();
  }
}
