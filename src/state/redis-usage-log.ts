/**
 * Tokens and spend per key, model and day in Redis, so that `GET /v1/usage` answers for every replica on it:
 * one hash per UTC day, a field per key, model and figure, incremented once per reply (the commands of one
 * reply go out in one pipelined write, and no request waits for them). Each day's hash expires after the
 * days a usage period can look back over.
 */
import type { Redis } from 'ioredis';
import type { Logger } from '../core/logger.js';
import type { Usage } from '../core/usage.js';
import { emptyUsageRow, UsageModelBound, usageDaysKept, utcDayClock, type UsageRecorder, type UsageRow } from '../core/usage-log.js';

const dayMs = 86_400_000;

/** The figures a row sums, as they are named in the hash's fields. */
const figures = ['requests', 'inputTokens', 'outputTokens', 'cacheReadTokens', 'cacheWriteTokens', 'costUsd', 'estimatedCostUsd'] as const;
type Figure = (typeof figures)[number];

const separator = '\u0000';

export class RedisUsageLog implements UsageRecorder {
  readonly scope = 'shared';
  /** Set once the day's hash has its expiry, so that EXPIRE is sent once a day, not per reply. */
  private expiringDay = '';
  /** A Redis that is down would otherwise log a line per reply. */
  private warned = false;
  /** Bounds the fields a key's client-chosen model names add to a day's hash (per replica: each keeps its own). */
  private readonly models = new UsageModelBound();

  constructor(
    private readonly client: Redis,
    private readonly keyPrefix: string,
    private readonly log: Pick<Logger, 'warn'>,
    private readonly today: () => string = utcDayClock(),
  ) {}

  record(key: string, model: string, usage: Usage): void {
    const day = this.today();
    const hash = this.hashOf(day);
    const field = `${key}${separator}${this.models.modelFor(key, model, day)}${separator}`;
    const commands: Promise<unknown>[] = [
      this.client.hincrby(hash, `${field}requests`, 1),
      this.client.hincrby(hash, `${field}inputTokens`, usage.inputTokens ?? 0),
      this.client.hincrby(hash, `${field}outputTokens`, usage.outputTokens ?? 0),
    ];
    if (usage.cachedInputTokens) commands.push(this.client.hincrby(hash, `${field}cacheReadTokens`, usage.cachedInputTokens));
    if (usage.cacheWriteInputTokens) commands.push(this.client.hincrby(hash, `${field}cacheWriteTokens`, usage.cacheWriteInputTokens));
    if (usage.costUsd) commands.push(this.client.hincrbyfloat(hash, `${field}costUsd`, usage.costUsd));
    if (usage.costUsd && usage.estimated) commands.push(this.client.hincrbyfloat(hash, `${field}estimatedCostUsd`, usage.costUsd));
    if (this.expiringDay !== day) {
      this.expiringDay = day;
      commands.push(this.client.pexpire(hash, (usageDaysKept + 1) * dayMs));
    }
    Promise.all(commands).then(
      () => (this.warned = false),
      (error: unknown) => {
        if (this.warned) return;
        this.warned = true;
        this.log.warn({ error: (error as Error).message }, 'recording usage in Redis failed; /v1/usage will miss these replies');
      },
    );
  }

  async rowsSince(fromDay: string, key?: string): Promise<UsageRow[]> {
    const days: string[] = [];
    const last = this.today();
    for (let time = Date.parse(`${fromDay}T00:00:00Z`); ; time += dayMs) {
      const day = new Date(time).toISOString().slice(0, 10);
      days.push(day);
      if (day >= last || days.length > usageDaysKept) break;
    }
    const hashes = await Promise.all(days.map((day) => this.client.hgetall(this.hashOf(day))));
    const rows: UsageRow[] = [];
    hashes.forEach((hash, index) => {
      const byRow = new Map<string, UsageRow>();
      for (const [field, value] of Object.entries(hash)) {
        const [rowKey, model, figure] = field.split(separator) as [string, string, Figure];
        if (key !== undefined && rowKey !== key) continue;
        const id = `${rowKey}${separator}${model}`;
        let row = byRow.get(id);
        if (!row) {
          row = emptyUsageRow(rowKey, model, days[index] as string);
          byRow.set(id, row);
        }
        if ((figures as readonly string[]).includes(figure)) row[figure] = Number(value);
      }
      rows.push(...byRow.values());
    });
    return rows;
  }

  private hashOf(day: string): string {
    return `${this.keyPrefix}usage:${day}`;
  }
}
