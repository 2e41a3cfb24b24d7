/** reservationEstimate: prompt plus allowed output (embeddings: input alone) at the model's price; a deployment at its dearest target; nothing for unknowns. */
import { describe, expect, it } from 'vitest';
import type { Deployment } from '../../src/config/config-types.js';
import type { ChatInput } from '../../src/core/chat-request.js';
import type { EmbeddingRequest } from '../../src/core/provider-adapter.js';
import type { ResolvedModel } from '../../src/core/resolved-model.js';
import { AccessPolicy } from '../../src/pipeline/access-policy.js';
import { PriceTable } from '../../src/pipeline/price-table.js';
import { ReservationEstimates, type ReservationPricing } from '../../src/pipeline/reservation-estimate.js';

/** `cheap/*` at $1 and $2 per million tokens, `dear/*` at $10 and $20. */
const prices = new PriceTable([
  { glob: 'cheap/*', prices: { input: 1, output: 2 } },
  { glob: 'dear/*', prices: { input: 10, output: 20 } },
]);

function resolve(modelString: string): ResolvedModel {
  const [provider, model] = modelString.split('/') as [string, string];
  if (provider === 'missing') throw new Error(`unknown provider '${provider}'`);
  return { id: modelString, provider, providerType: 'openai-compatible', model, family: 'generic-json', toolCalling: 'native' };
}

const deployments = new Map<string, Deployment>([
  [
    'pool',
    {
      name: 'pool',
      strategy: 'weighted',
      targets: [
        { model: 'cheap/a', weight: 1 },
        { model: 'dear/b', weight: 1 },
      ],
      cooldownMs: 0,
      sessionAffinity: false,
    },
  ],
]);

function reservationEstimate(input: ChatInput, pricing: ReservationPricing): number | undefined {
  return new ReservationEstimates(pricing).chat(input);
}

function embeddingReservationEstimate(model: string, input: EmbeddingRequest['input'], pricing: ReservationPricing): number | undefined {
  return new ReservationEstimates(pricing).embedding(model, input);
}

/** 40 characters of prompt: ⌈40 / 4⌉ = 10 tokens by the estimate's rule. */
function chat(model: string, maxOutputTokens?: number): ChatInput {
  return {
    model,
    messages: [{ role: 'user', content: [{ type: 'text', text: 'x'.repeat(40) }] }],
    ...(maxOutputTokens === undefined ? {} : { maxOutputTokens }),
  } as ChatInput;
}

describe('reservationEstimate', () => {
  const pricing = { prices, resolve, deployments };

  it('prices the prompt and the output the client allows', () => {
    expect(reservationEstimate(chat('cheap/m', 100), pricing)).toBeCloseTo((10 * 1 + 100 * 2) / 1e6, 12);
  });

  it('reserves 4,096 output tokens when the client sets no limit', () => {
    expect(reservationEstimate(chat('cheap/m'), pricing)).toBeCloseTo((10 * 1 + 4_096 * 2) / 1e6, 12);
  });

  it('reserves 4,096 output tokens for a negative limit, which llama-server and Ollama read as none', () => {
    // llama-server's max_tokens sets n_predict, where -1 is "infinity" (tools/server/README.md); Ollama's
    // num_predict -1 is the same. A negative estimate reserved nothing and passed beside other requests.
    expect(reservationEstimate(chat('cheap/m', -1), pricing)).toBeCloseTo((10 * 1 + 4_096 * 2) / 1e6, 12);
    expect(reservationEstimate(chat('cheap/m', -1_000), pricing)).toBeCloseTo((10 * 1 + 4_096 * 2) / 1e6, 12);
  });

  it("prices a deployment's name at its dearest target", () => {
    expect(reservationEstimate(chat('pool', 100), pricing)).toBeCloseTo((10 * 10 + 100 * 20) / 1e6, 12);
  });

  it('prices a model at its dearest fallback, which answers when the primary fails', () => {
    const withFallbacks = { ...pricing, fallbacks: new Map([['cheap/m', ['dear/f']]]) };
    expect(reservationEstimate(chat('cheap/m', 100), withFallbacks)).toBeCloseTo((10 * 10 + 100 * 20) / 1e6, 12);
  });

  it("prices a deployment's name at the dearest of its targets and its own fallbacks", () => {
    const withFallbacks = { ...pricing, fallbacks: new Map([['pool', ['dear/f']]]) };
    const dearer = new PriceTable([
      { glob: 'cheap/*', prices: { input: 1, output: 2 } },
      { glob: 'dear/b', prices: { input: 10, output: 20 } },
      { glob: 'dear/f', prices: { input: 30, output: 40 } },
    ]);
    expect(reservationEstimate(chat('pool', 100), { ...withFallbacks, prices: dearer })).toBeCloseTo((10 * 30 + 100 * 40) / 1e6, 12);
  });

  it('prices a fallback without a price at the priced targets, and a primary without one at its priced fallback', () => {
    expect(reservationEstimate(chat('cheap/m', 100), { ...pricing, fallbacks: new Map([['cheap/m', ['unpriced/f']]]) })).toBeCloseTo(
      (10 * 1 + 100 * 2) / 1e6,
      12,
    );
    expect(reservationEstimate(chat('unpriced/m', 100), { ...pricing, fallbacks: new Map([['unpriced/m', ['dear/f']]]) })).toBeCloseTo(
      (10 * 10 + 100 * 20) / 1e6,
      12,
    );
  });

  it("leaves out a target the key's models do not allow, as the pipeline skips it", () => {
    const estimates = new ReservationEstimates({ ...pricing, fallbacks: new Map([['cheap/m', ['dear/f']]]) });
    const cheapOnly = new AccessPolicy({ key: 'k', name: 'team', models: ['cheap/*'] });
    expect(estimates.chat(chat('cheap/m', 100), cheapOnly)).toBeCloseTo((10 * 1 + 100 * 2) / 1e6, 12);
    expect(estimates.chat(chat('pool', 100), cheapOnly)).toBeCloseTo((10 * 1 + 100 * 2) / 1e6, 12);
    // Another key of the same gateway may reach the dear fallback: the memo is per model name, not per key.
    expect(estimates.chat(chat('cheap/m', 100))).toBeCloseTo((10 * 10 + 100 * 20) / 1e6, 12);
  });

  it('finds the targets a model name may reach once, not per request', () => {
    const resolved: string[] = [];
    const counting = (modelString: string): ResolvedModel => {
      resolved.push(modelString);
      return resolve(modelString);
    };
    const estimates = new ReservationEstimates({ prices, resolve: counting, deployments, fallbacks: new Map([['pool', ['dear/f']]]) });
    for (let request = 0; request < 3; request++) expect(estimates.chat(chat('pool', 100))).toBeCloseTo((10 * 10 + 100 * 20) / 1e6, 12);
    expect(resolved).toEqual(['cheap/a', 'dear/b', 'dear/f']);
  });

  it('reserves nothing for a model without a price or one that does not resolve', () => {
    expect(reservationEstimate(chat('unpriced/m', 100), pricing)).toBeUndefined();
    expect(reservationEstimate(chat('missing/m', 100), pricing)).toBeUndefined();
  });
});

describe('embeddingReservationEstimate', () => {
  const pricing = { prices, resolve, deployments };

  it('prices the input alone, each text by the same rule and token ids one each', () => {
    // ⌈40 / 4⌉ + ⌈3 / 4⌉ = 11 tokens of text; three token ids.
    expect(embeddingReservationEstimate('cheap/e', ['x'.repeat(40), 'abc'], pricing)).toBeCloseTo((11 * 1) / 1e6, 12);
    expect(embeddingReservationEstimate('cheap/e', [1, 2, 3], pricing)).toBeCloseTo((3 * 1) / 1e6, 12);
  });

  it("prices a deployment's name at its dearest target, and nothing for a model without a price", () => {
    expect(embeddingReservationEstimate('pool', 'x'.repeat(40), pricing)).toBeCloseTo((10 * 10) / 1e6, 12);
    expect(embeddingReservationEstimate('unpriced/e', 'x'.repeat(40), pricing)).toBeUndefined();
    expect(embeddingReservationEstimate('missing/e', 'x'.repeat(40), pricing)).toBeUndefined();
  });
});
