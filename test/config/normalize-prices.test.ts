/** `prices` keys are globs over provider/model: one naming a deployment or an alias would never match, and is refused. */
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/config-error.js';
import { normalizePrices } from '../../src/config/normalize-prices.js';

const rates = { input: 1, output: 2 };

describe('normalizePrices', () => {
  it('keeps provider/model globs in their order', () => {
    expect(normalizePrices({ 'local/*': rates, 'openai/gpt-4o*': rates })).toEqual([
      { glob: 'local/*', prices: rates },
      { glob: 'openai/gpt-4o*', prices: rates },
    ]);
  });

  it("refuses a deployment's name, naming its targets, and an alias's, naming its target", () => {
    const deployments = { coder: { targets: [{ model: 'box1/qwen' }, { model: 'box2/qwen' }] } };
    const aliases = { fast: 'local/qwen3' };
    const refusal = (() => {
      try {
        normalizePrices({ coder: rates, fast: rates, 'local/*': rates }, deployments, aliases);
      } catch (error) {
        return error;
      }
      return undefined;
    })();
    expect(refusal).toBeInstanceOf(ConfigError);
    expect((refusal as ConfigError).problems).toEqual([
      "prices.coder: 'coder' is a deployment, and prices are keyed by provider/model: price its targets ('box1/qwen', 'box2/qwen')",
      "prices.fast: 'fast' is an alias, and prices are keyed by provider/model: price its target ('local/qwen3')",
    ]);
  });

  it('lets a name with a slash be, as it may be a real provider/model too', () => {
    expect(normalizePrices({ 'openai/gpt-4o': rates }, {}, { 'openai/gpt-4o': 'local/qwen' })).toHaveLength(1);
  });

  it('refuses a key whose provider is not configured, or a bare name, which would leave replies unpriced (so never charged)', () => {
    const refusal = (() => {
      try {
        normalizePrices({ 'openai-prod/*': rates, 'gpt-4o': rates, 'local/*': rates, '*/m': rates, 'gpt-*': rates }, {}, {}, [
          'openai',
          'local',
        ]);
      } catch (error) {
        return error;
      }
      return undefined;
    })();
    expect(refusal).toBeInstanceOf(ConfigError);
    expect((refusal as ConfigError).problems).toEqual([
      "prices.openai-prod/*: no provider is named 'openai-prod' (configured: openai, local), so this price would match no reply",
      "prices.gpt-4o: prices are keyed by provider/model ('<provider>/gpt-4o'), and 'gpt-4o' names no model",
    ]);
  });
});
