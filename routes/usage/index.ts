/**
 * GET /v1/usage: spend and tokens per key, model and day for the current UTC period (`?period=day|week|month`,
 * default month), with each key's budget when it has one. A key sees its own usage; a key marked `admin`
 * sees every key's; without client keys the gateway trusts its network and shows all.
 */
import type { FastifyInstance } from 'fastify';
import { gatewayError } from '../../src/core/gateway-error.js';
import type { UsageRecorder, UsageRow } from '../../src/core/usage-log.js';

type Period = 'day' | 'week' | 'month';
const periods: readonly Period[] = ['day', 'week', 'month'];

/** What the route needs of budgets (src/plugins/budgets.ts's BudgetLedger), read through the app. */
type BudgetReader = {
  status(holder: { name: string; budget: { usd: number; period: Period } }): unknown;
};

function periodStart(period: Period, now: Date): Date {
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth();
  if (period === 'month') return new Date(Date.UTC(year, month, 1));
  const date = now.getUTCDate();
  if (period === 'day') return new Date(Date.UTC(year, month, date));
  return new Date(Date.UTC(year, month, date - ((now.getUTCDay() + 6) % 7)));
}

function wireRow(row: UsageRow): Record<string, unknown> {
  return {
    model: row.model,
    day: row.day,
    requests: row.requests,
    input_tokens: row.inputTokens,
    output_tokens: row.outputTokens,
    cache_read_tokens: row.cacheReadTokens,
    cache_write_tokens: row.cacheWriteTokens,
    cost_usd: row.costUsd,
    estimated_cost_usd: row.estimatedCostUsd,
  };
}

export type UsageRouteOptions = {
  usage: UsageRecorder;
  /** Every configured key's name and budget (the server's default filled in), for the budget figures. */
  budgets: ReadonlyMap<string, { usd: number; period: Period } | undefined>;
  /** What finished requests have yet to record (src/plugins/after-reply.ts): written before the rows are read. */
  pending: { flush(): void };
};

export function registerUsageRoutes(app: FastifyInstance, options: UsageRouteOptions): void {
  app.get<{ Querystring: { period?: string } }>('/v1/usage', async (request) => {
    const requested = request.query.period ?? 'month';
    if (!(periods as readonly string[]).includes(requested))
      throw gatewayError('invalid_request', { message: `period must be one of ${periods.join(', ')}.`, param: 'period' });
    const period = requested as Period;
    options.pending.flush();
    const start = periodStart(period, new Date());
    const access = request.gatewayContext?.access;
    const ownKey = access && !access.admin ? access.name : undefined;
    const rows = await options.usage.rowsSince(start.toISOString().slice(0, 10), ownKey);
    const names = new Set(rows.map((row) => row.key));
    if (ownKey !== undefined) names.add(ownKey);
    else for (const name of options.budgets.keys()) names.add(name);
    const ledger = request.server.budgets as BudgetReader | undefined;
    const keys = await Promise.all(
      [...names].sort().map(async (name) => {
        const own = rows.filter((row) => row.key === name);
        const budget = options.budgets.get(name);
        const status =
          budget && ledger
            ? ((await ledger.status({ name, budget })) as { spentUsd: number; reservedUsd: number; remainingUsd: number; resetsAt: Date })
            : undefined;
        return {
          key: name,
          cost_usd: own.reduce((sum, row) => sum + row.costUsd, 0),
          requests: own.reduce((sum, row) => sum + row.requests, 0),
          budget:
            status && budget
              ? {
                  usd: budget.usd,
                  period: budget.period,
                  spent_usd: status.spentUsd,
                  reserved_usd: status.reservedUsd,
                  remaining_usd: status.remainingUsd,
                  resets_at: status.resetsAt.toISOString(),
                }
              : null,
          data: own.map(wireRow),
        };
      }),
    );
    return { object: 'usage', period, period_start: start.toISOString(), scope: options.usage.scope, keys };
  });
}
