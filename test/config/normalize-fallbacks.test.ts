/** `fallbacks` and `retries` in a config file: keys by the model they name (aliases resolved), and errors naming the path. */
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/config-error.js';
import { normalizeConfig } from '../../src/config/normalize-config.js';
import { compileConfigFileValidator } from '../../src/config/validate-config-file.js';

/** The config schema is compiled once for the file (as the loader does once per load). */
const validateConfigFile = compileConfigFileValidator();

const providers = {
  a: { type: 'openai-compatible', baseUrl: 'http://127.0.0.1:1/v1' },
  b: { type: 'ollama', baseUrl: 'http://127.0.0.1:2' },
};

function load(file: Record<string, unknown>) {
  return normalizeConfig(validateConfigFile({ providers, ...file }), {});
}

function problems(file: Record<string, unknown>): string[] {
  try {
    load(file);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe('fallbacks', () => {
  it('keys each list by the provider/model it falls back from, an alias by its target', () => {
    const config = load({ aliases: { fast: 'a/m1' }, fallbacks: { fast: ['b/m2'], 'b/m2': ['fast'] } });
    expect([...(config.fallbacks ?? [])]).toEqual([
      ['a/m1', ['b/m2']],
      ['b/m2', ['fast']],
    ]);
    expect(config.fallbackOn).toEqual([429, '5xx', 'timeout', 'connect']);
  });

  it('names an unknown provider and a model that falls back to itself', () => {
    const found = problems({ aliases: { fast: 'a/m1' }, fallbacks: { 'a/m1': ['nowhere/m', 'fast'] } });
    expect(found).toHaveLength(2);
    expect(found[0]).toMatch(/^fallbacks\.a\/m1\.0: Unknown provider 'nowhere'/);
    expect(found[1]).toBe('fallbacks.a/m1.1: a model cannot fall back to itself');
  });

  it('accepts statuses and the words 5xx, timeout and connect in fallbackOn, nothing else', () => {
    expect(load({ fallbackOn: [429, '5xx', 'timeout'] }).fallbackOn).toEqual([429, '5xx', 'timeout']);
    expect(() => load({ fallbackOn: ['sometimes'] })).toThrow(ConfigError);
    expect(() => load({ fallbackOn: [200] })).toThrow(ConfigError);
  });
});

describe('retries', () => {
  it('are off unless configured, and fill the delays a partial setting leaves out', () => {
    const plain = load({});
    expect(plain.providers.a?.retries).toBeUndefined();
    const configured = normalizeConfig(validateConfigFile({ providers: { a: { ...providers.a, retries: { count: 2 } } } }), {});
    expect(configured.providers.a?.retries).toEqual({ count: 2, initialDelayMs: 250, maxDelayMs: 8_000 });
    expect(() =>
      normalizeConfig(validateConfigFile({ providers: { a: { ...providers.a, retries: { count: 2, forever: true } } } }), {}),
    ).toThrow(ConfigError);
  });
});
