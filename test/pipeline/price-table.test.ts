/** The price table's choice of price data per provider kind, checked against the package's own calcPrice. */
import { calcPrice } from '@pydantic/genai-prices';
import { describe, expect, it } from 'vitest';
import type { ResolvedModel } from '../../src/core/resolved-model.js';
import { PriceTable } from '../../src/pipeline/price-table.js';

function model(providerType: string, name: string): ResolvedModel {
  return { id: `cloud/${name}`, provider: 'cloud', providerType, model: name, family: 'generic-json', toolCalling: 'native' };
}

const usage = { inputTokens: 12_000, outputTokens: 800, cachedInputTokens: 10_000, cacheWriteInputTokens: 1_000 };
const packageUsage = { input_tokens: 12_000, output_tokens: 800, cache_read_tokens: 10_000, cache_write_tokens: 1_000 };

describe('PriceTable', () => {
  it.each([
    ['vertex', 'google', 'gemini-2.5-pro'],
    ['vertex', 'google', 'claude-sonnet-4-5@20250929'],
    ['bedrock', 'aws', 'us.anthropic.claude-sonnet-4-20250514-v1:0'],
    ['bedrock', 'aws', 'amazon.nova-pro-v1:0'],
  ])('prices %s models from the package (provider %s): %s', (kind, providerId, name) => {
    const expected = calcPrice(packageUsage, name, { providerId });
    expect(expected).toBeDefined();
    expect(new PriceTable().costOf(model(kind, name), usage)).toBeCloseTo(expected!.total_price, 12);
  });

  it('leaves an Azure deployment unpriced unless the config prices it: its name is the operator’s own', () => {
    expect(new PriceTable().costOf(model('azure-openai', 'gpt-4o'), usage)).toBeUndefined();
    const configured = new PriceTable([{ glob: 'cloud/*', prices: { input: 1, output: 2 } }]);
    expect(configured.costOf(model('azure-openai', 'gpt-4o'), usage)).toBeCloseTo((12_000 * 1 + 800 * 2) / 1e6, 12);
  });
});
