/**
 * Tokens and spend per client key, model and UTC day, for `GET /v1/usage`. Kept in this process (each
 * replica answers for the requests it served; budgets themselves are counted in the shared state) for
 * the last 62 days, enough for a month's period and the one before it.
 */
import type { Usage } from './usage.js';

export type UsageRow = {
  key: string;
  model: string;
  day: string;
  requests: number;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  costUsd: number;
  /** The part of costUsd the gateway estimated: replies that ended before the upstream's usage arrived. */
  estimatedCostUsd: number;
};

/** A row with nothing counted yet, for the first reply of a key and model on a day. */
export function emptyUsageRow(key: string, model: string, day: string): UsageRow {
  return {
    key,
    model,
    day,
    requests: 0,
    inputTokens: 0,
    outputTokens: 0,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
    costUsd: 0,
    estimatedCostUsd: 0,
  };
}

/** Where tokens and spend per key, model and day are kept: this process (UsageLog) or Redis, shared by replicas. */
export interface UsageRecorder {
  /** Whether the rows are every replica's (Redis) or this replica's own. */
  readonly scope: 'shared' | 'replica';
  record(key: string, model: string, usage: Usage): void;
  /** Rows from `fromDay` (inclusive, `YYYY-MM-DD`), of one key or of all. */
  rowsSince(fromDay: string, key?: string): UsageRow[] | Promise<UsageRow[]>;
}

/** Long enough for a month's period and the one before it. */
export const usageDaysKept = 62;

/**
 * The model is the one figure a client chooses (an openai-compatible provider passes any name on, and
 * llama-server answers whatever it is called), so a key could add a row per name it invents, for 62 days,
 * and `GET /v1/usage` would carry them all. As the metrics bound their model label (src/plugins/metrics.ts),
 * a key's first `usageModelsPerKeyDay` models of a day keep their rows; later new ones are counted together.
 */
export const usageModelsPerKeyDay = 500;
export const otherModelsRow = '(other)';

/** Which models each key has a row for today, so that a new one past the bound goes to `otherModelsRow`. */
export class UsageModelBound {
  private day = '';
  private readonly models = new Map<string, Set<string>>();

  constructor(private readonly limit = usageModelsPerKeyDay) {}

  /** `model` itself while the key's day has room for it, else `otherModelsRow`. */
  modelFor(key: string, model: string, day: string): string {
    if (day !== this.day) {
      this.day = day;
      this.models.clear();
    }
    let models = this.models.get(key);
    if (!models) {
      models = new Set();
      this.models.set(key, models);
    }
    if (models.has(model)) return model;
    if (models.size >= this.limit) return otherModelsRow;
    models.add(model);
    return model;
  }
}

/** Today's UTC date, worked out again only when the day ends (a Date and a string per request cost ~1 µs). */
export function utcDayClock(): () => string {
  let day = '';
  let nextDayAt = 0;
  return () => {
    const now = Date.now();
    if (now >= nextDayAt) {
      day = new Date(now).toISOString().slice(0, 10);
      nextDayAt = (Math.floor(now / 86_400_000) + 1) * 86_400_000;
    }
    return day;
  };
}

export class UsageLog implements UsageRecorder {
  readonly scope = 'replica';
  private readonly rows = new Map<string, UsageRow>();
  private lastDay = '';
  private readonly models: UsageModelBound;

  constructor(
    private readonly today: () => string = utcDayClock(),
    modelsPerKeyDay = usageModelsPerKeyDay,
  ) {
    this.models = new UsageModelBound(modelsPerKeyDay);
  }

  record(key: string, model: string, usage: Usage): void {
    const day = this.today();
    if (day !== this.lastDay) this.forgetBefore(day);
    const id = `${key}\u0000${model}\u0000${day}`;
    // A row found costs nothing more; only a key's new model of the day is checked against the bound.
    let row = this.rows.get(id) ?? this.rowOfNewModel(key, model, day);
    if (!row) {
      row = emptyUsageRow(key, model, day);
      this.rows.set(id, row);
    }
    row.requests++;
    row.inputTokens += usage.inputTokens ?? 0;
    row.outputTokens += usage.outputTokens ?? 0;
    row.cacheReadTokens += usage.cachedInputTokens ?? 0;
    row.cacheWriteTokens += usage.cacheWriteInputTokens ?? 0;
    row.costUsd += usage.costUsd ?? 0;
    if (usage.estimated) row.estimatedCostUsd += usage.costUsd ?? 0;
  }

  /** Rows from `fromDay` (inclusive, `YYYY-MM-DD`), of one key or of all. */
  rowsSince(fromDay: string, key?: string): UsageRow[] {
    return [...this.rows.values()].filter((row) => row.day >= fromDay && (key === undefined || row.key === key));
  }

  /** The key's `(other)` row of the day when its models are at the bound; undefined while there is room. */
  private rowOfNewModel(key: string, model: string, day: string): UsageRow | undefined {
    if (this.models.modelFor(key, model, day) === model) return undefined;
    const id = `${key}\u0000${otherModelsRow}\u0000${day}`;
    let row = this.rows.get(id);
    if (!row) {
      row = emptyUsageRow(key, otherModelsRow, day);
      this.rows.set(id, row);
    }
    return row;
  }

  private forgetBefore(day: string): void {
    this.lastDay = day;
    const oldest = new Date(Date.parse(`${day}T00:00:00Z`) - usageDaysKept * 86_400_000).toISOString().slice(0, 10);
    for (const [id, row] of this.rows) if (row.day < oldest) this.rows.delete(id);
  }
}
