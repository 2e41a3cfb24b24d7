/**
 * The usage log's rows per key, model and day stay bounded though the model is the client's to choose (an
 * openai-compatible provider passes any name on): a key's first models of a day keep their rows, later new
 * ones are counted together under `(other)`, in process and in Redis.
 */
import type { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { otherModelsRow, UsageLog, usageModelsPerKeyDay } from '../../src/core/usage-log.js';
import { RedisUsageLog } from '../../src/state/redis-usage-log.js';

const usage = { inputTokens: 10, outputTokens: 5, costUsd: 0.001 };

describe('UsageLog', () => {
  it("counts a key's models past the bound together under (other), and starts afresh the next day", () => {
    let day = '2026-12-06';
    const log = new UsageLog(() => day, 2);
    for (const model of ['local/a', 'local/b', 'local/c', 'local/d', 'local/a']) log.record('team', model, usage);
    log.record('other-team', 'local/c', usage);
    const rows = (key: string) =>
      log
        .rowsSince(day, key)
        .filter((row) => row.day === day)
        .map((row) => [row.model, row.requests]);
    expect(rows('team')).toEqual([
      ['local/a', 2],
      ['local/b', 1],
      [otherModelsRow, 2],
    ]);
    // The bound is per key: another key's models have their own room.
    expect(rows('other-team')).toEqual([['local/c', 1]]);
    day = '2026-12-07';
    log.record('team', 'local/c', usage);
    expect(rows('team')).toEqual([['local/c', 1]]);
  });
});

describe('RedisUsageLog', () => {
  it('writes the fields of a model past the bound under (other)', () => {
    const fields: string[] = [];
    const client = {
      hincrby: async (_hash: string, field: string) => void fields.push(field),
      hincrbyfloat: async (_hash: string, field: string) => void fields.push(field),
      pexpire: async () => 1,
    } as unknown as Redis;
    const log = new RedisUsageLog(client, 'test:', { warn: () => undefined }, () => '2026-12-06');
    for (let index = 0; index <= usageModelsPerKeyDay; index++) log.record('team', `local/invented-${index}`, usage);
    const models = new Set(fields.filter((field) => field.endsWith('\u0000requests')).map((field) => field.split('\u0000')[1]));
    expect(models.size).toBe(usageModelsPerKeyDay + 1);
    expect(models.has(otherModelsRow)).toBe(true);
    expect(models.has(`local/invented-${usageModelsPerKeyDay}`)).toBe(false);
  });
});
