/**
 * What a reply spends, recorded as soon as it is known, since the next request's admission reads it: its
 * cost against the key's budget and its tokens against the key's tokens-per-minute limit. Generations
 * (finished or cut off) and embeddings are charged alike.
 */
import type { FastifyRequest } from 'fastify';
import type { Admission } from '../../src/core/admission.js';
import type { Usage } from '../../src/core/usage.js';
import type { BudgetHolder } from '../../src/pipeline/request-context.js';

/**
 * `budget`: what the request spends against; `admission`: its rate-limit admission (a WebSocket turn has its
 * own). Arguments rather than an object: no allocation per request.
 */
export function chargeReply(
  request: FastifyRequest,
  budget: BudgetHolder | null | undefined,
  admission: Admission | null | undefined,
  usage: Usage,
): void {
  const { budgets } = request.server;
  if (budget && budgets && usage.costUsd) budgets.record(budget, usage.costUsd, request.log);
  admission?.recordTokens(usage.totalTokens ?? (usage.inputTokens ?? 0) + (usage.outputTokens ?? 0));
}

/**
 * `x-interlingua-budget-remaining-usd` for a whole reply, written once its cost is known (as LiteLLM's key
 * spend header counts the reply it comes with): what was left when the request was admitted less what this
 * reply cost, so a client reads what is left for its next request. Undefined without a budget read at
 * admission (none applies, or the store failed). Not re-read: that would cost a Redis round trip per reply.
 * A stream's head is sent before its cost is known, and keeps the figure at admission.
 */
export function remainingAfterReply(holder: BudgetHolder | null | undefined, costUsd: number): string | undefined {
  if (holder?.remainingUsd === undefined) return undefined;
  return Math.max(0, holder.remainingUsd - costUsd).toFixed(6);
}
