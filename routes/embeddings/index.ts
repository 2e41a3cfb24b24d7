/**
 * POST /v1/embeddings: passed to providers that have embeddings (openai, openai-compatible, ollama), through
 * a deployment's targets as a chat is (src/pipeline/embedding-pipeline.ts). The
 * input tokens the upstream counted (or, when it counted none, the gateway's estimate) are priced like a
 * chat's (src/pipeline/price-table.ts) and charged to the key's budget, tokens-per-minute limit and usage rows.
 * Like a non-streamed chat, a request is bounded by `server.wholeReplyTimeoutMs` and registered with the
 * live-stream registry, so a graceful shutdown waits for it. A budgeted key's request reserves its input's
 * estimated cost until it is charged, as a chat reserves its own (src/plugins/budgets.ts).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { FromSchema } from 'json-schema-to-ts';
import type { EmbeddingRequest, EmbeddingResult } from '../../src/core/provider-adapter.js';
import type { LiveStreamRegistry } from '../../src/core/live-stream-registry.js';
import type { ResolvedModel } from '../../src/core/resolved-model.js';
import type { Usage } from '../../src/core/usage.js';
import type { TargetProgress } from '../../src/pipeline/try-targets.js';
import type { EmbeddingAnswer, EmbeddingInput, EmbeddingPipeline } from '../../src/pipeline/embedding-pipeline.js';
import type { PriceTable } from '../../src/pipeline/price-table.js';
import type { BodyValidators } from '../shared/body-validator.js';
import { chargeReply, remainingAfterReply } from '../shared/charge-reply.js';
import { watchClientAbort } from '../shared/client-abort.js';
import { formatUsd, headerAddress, setProgressHeaders } from '../shared/run-generation.js';
import { estimateEmbeddingInputTokens } from '../../src/pipeline/estimate-tokens.js';
import { modelNameSchema } from '../shared/model-name-schema.js';

/** The body's one source: its type is derived from it. */
const embeddingRequestSchema = {
  type: 'object',
  required: ['model', 'input'],
  properties: {
    model: modelNameSchema,
    input: {
      anyOf: [
        { type: 'string' },
        { type: 'array', minItems: 1, items: { type: 'string' } },
        { type: 'array', minItems: 1, items: { type: 'integer' } },
        { type: 'array', minItems: 1, items: { type: 'array', items: { type: 'integer' } } },
      ],
    },
    dimensions: { type: 'integer', minimum: 1 },
    encoding_format: { enum: ['float', 'base64'] },
    user: { type: 'string' },
  },
} as const;

export function registerEmbeddingsRoutes(
  app: FastifyInstance,
  options: { embeddings: EmbeddingPipeline; validators: BodyValidators; prices: PriceTable; liveStreams: LiveStreamRegistry },
): void {
  const { embeddings, prices, liveStreams } = options;
  const validateBody = options.validators.for<EmbeddingBody>(embeddingRequestSchema);
  app.post('/v1/embeddings', async (request, reply) => {
    const body = validateBody(request.body);
    // Only with a budget: the plain path does no reservation work.
    if (!request.gatewayContext?.budget || !request.server.reserveEmbeddingBudget) return embed(request, reply, body);
    const reservation = await request.server.reserveEmbeddingBudget(request, reply, body.model, body.input);
    try {
      return await embed(request, reply, body);
    } finally {
      // After the reply's cost was charged (or it failed): the spend counts from here instead.
      if (reservation) void reservation.release();
    }
  });

  async function embed(request: FastifyRequest, reply: FastifyReply, body: EmbeddingBody): Promise<Record<string, unknown>> {
    const input: EmbeddingInput = { input: body.input };
    if (body.dimensions !== undefined) input.dimensions = body.dimensions;
    if (body.encoding_format !== undefined) input.encodingFormat = body.encoding_format;
    if (body.user !== undefined) input.user = body.user;
    const abort = watchClientAbort(reply);
    const deadline = embeddings.wholeReplyDeadlines.arm(abort.cancellation);
    const release = liveStreams.add(abort.cancellation);
    const progress: TargetProgress = { count: 0 };
    // A reply read whole: a 2xx whose body fails counts as a server failure, as for a non-streamed chat.
    const context = { cancellation: abort.cancellation, requestId: request.id, log: request.log, wholeReply: true };
    let answer: EmbeddingAnswer;
    try {
      // The key's model globs hold here as for chats (403 model_not_allowed), an alias or deployment checked by its target.
      answer = await embeddings.embed(body.model, input, request.gatewayContext?.access ?? undefined, { context, progress });
    } catch (error) {
      // Abandoned (the client left) while the upstream had the input: it may have embedded and billed it, as a
      // chat abandoned before its reply is charged its prompt.
      if (progress.abandoned && progress.target) chargedUsage(request, progress.target, estimatedInput(body.input), prices);
      throw error;
    } finally {
      embeddings.wholeReplyDeadlines.disarm(deadline);
      release();
      abort.dispose();
      if (progress.count > 0) setProgressHeaders(reply, progress);
    }
    const { result, model } = answer;
    if (answer.deployment !== undefined) void reply.header('x-interlingua-deployment', headerAddress(answer.deployment));
    const response: Record<string, unknown> = {
      object: 'list',
      data: result.data.map((item) => ({ object: 'embedding', index: item.index, embedding: item.embedding })),
      model: body.model,
    };
    const usage = chargedUsage(request, model, result.usage ?? estimatedInput(body.input), prices);
    if (usage.costUsd !== undefined) {
      void reply.header('x-interlingua-cost-usd', formatUsd(usage.costUsd));
      if (usage.estimated) void reply.header('x-interlingua-cost-estimated', 'true');
      const remaining = remainingAfterReply(request.gatewayContext?.budget, usage.costUsd);
      if (remaining !== undefined) void reply.header('x-interlingua-budget-remaining-usd', remaining);
    }
    // The reply's usage is the upstream's: one that counted nothing is not given the gateway's estimate as its own.
    if (!usage.estimated) {
      const wireUsage: Record<string, unknown> = { prompt_tokens: usage.inputTokens, total_tokens: usage.totalTokens };
      // An extension field, as in the chat APIs' usage; SDKs ignore it.
      if (usage.costUsd !== undefined) wireUsage.cost_usd = usage.costUsd;
      response.usage = wireUsage;
    }
    return response;
  }
}

type EmbeddingBody = FromSchema<typeof embeddingRequestSchema>;

type EmbeddingUsage = NonNullable<EmbeddingResult['usage']> & { estimated?: true };

/** An upstream that sent no usage (OPEA's TEI wrapper sends `"usage": null`) still embedded the input, and may bill it. */
function estimatedInput(input: EmbeddingRequest['input']): EmbeddingUsage {
  const tokens = estimateEmbeddingInputTokens(input);
  return { promptTokens: tokens, totalTokens: tokens, estimated: true };
}

/** The token count (the upstream's, or the gateway's estimate), priced and charged to the key (budget, token limit, usage rows). */
function chargedUsage(request: FastifyRequest, model: ResolvedModel, counted: EmbeddingUsage, prices: PriceTable): Usage {
  // Embeddings have input only: no output tokens to price.
  const usage: Usage = { inputTokens: counted.promptTokens, outputTokens: 0, totalTokens: counted.totalTokens };
  if (counted.estimated) usage.estimated = true;
  const costUsd = prices.costOf(model, usage);
  if (costUsd !== undefined) usage.costUsd = costUsd;
  const context = request.gatewayContext;
  chargeReply(request, context?.budget, context?.admission, usage);
  const { server } = request;
  const keyName = context?.access?.name;
  // In the /metrics token and cost totals too, as a chat's usage is (they summed less than /v1/usage and the budgets).
  server.afterReply.add(() => {
    server.usageLog?.record(keyName ?? 'anonymous', `${model.provider}/${model.model}`, usage);
    server.metrics?.observeUsage(model.provider, model.model, keyName, usage);
  });
  return usage;
}
