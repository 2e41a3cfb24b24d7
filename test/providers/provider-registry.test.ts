/** The provider registry: one list of kinds, from which the config enum, discovery, tool-calling defaults, telemetry names and dispatch derive. */
import { describe, expect, it } from 'vitest';
import { discoverProviders } from '../../src/config/discover-providers.js';
import { normalizeConfig } from '../../src/config/normalize-config.js';
import { resolveModel } from '../../src/config/resolve-model.js';
import { compileConfigFileValidator } from '../../src/config/validate-config-file.js';
import { providerKindConfigProperties, providerTypesWithoutUpstream } from '../../src/core/provider-types.js';
import {
  createProviderAdapter,
  genAiProviderName,
  providerDiscovery,
  providerKind,
  providerKinds,
  providerTypeNames,
} from '../../providers/index.js';

/** The config schema is compiled once for the file (as the loader does once per load). */
const validateConfigFile = compileConfigFileValidator();

const noDependencies = { renderCall: () => '' };

/** What a kind cannot do without besides its URL (Vertex AI's Google Cloud project, Bedrock's region). */
function requiredSettings(type: string): Record<string, string> {
  if (type === 'vertex') return { project: 'a-project' };
  return type === 'bedrock' ? { region: 'us-east-1' } : {};
}

describe('the provider registry', () => {
  it('lists each kind once, and the config accepts exactly those types', () => {
    expect(new Set(providerTypeNames).size).toBe(providerKinds.length);
    for (const type of providerTypeNames) {
      const entry = providerKind(type).hasUpstream ? { type, baseUrl: 'http://127.0.0.1:1', ...requiredSettings(type) } : { type };
      expect(() => validateConfigFile({ providers: { one: entry } })).not.toThrow();
    }
    expect(() => validateConfigFile({ providers: { one: { type: 'watsonx', baseUrl: 'http://127.0.0.1:1' } } })).toThrow(/must be one of/);
  });

  it('says which kinds have an upstream, and their own settings, as their descriptors do (config reads src/core/provider-types.ts)', () => {
    for (const kind of providerKinds) {
      expect(providerTypesWithoutUpstream.includes(kind.type)).toBe(!kind.hasUpstream);
      const configured = (providerKindConfigProperties as Record<string, object | undefined>)[kind.type];
      expect(configured, `${kind.type}: its configProperties belong in providerKindConfigProperties`).toEqual(kind.configProperties);
    }
  });

  it('requires a baseUrl of every kind with an upstream, except where the kind knows its own', () => {
    for (const type of ['openai-compatible', 'ollama', 'azure-openai'])
      expect(() => validateConfigFile({ providers: { one: { type } } })).toThrow(/baseUrl: is required/);
    expect(() => validateConfigFile({ providers: { one: { type: 'scripted' } } })).not.toThrow();
    // The first-party APIs: their own URL unless baseUrl says otherwise (a proxy, a private endpoint).
    const defaults = {
      openai: 'https://api.openai.com/v1',
      anthropic: 'https://api.anthropic.com',
      gemini: 'https://generativelanguage.googleapis.com',
    };
    for (const [type, url] of Object.entries(defaults)) {
      const config = normalizeConfig(validateConfigFile({ providers: { one: { type, apiKey: 'k' } } }), {});
      expect(config.providers.one?.baseUrl).toBe(url);
      const proxied = normalizeConfig(
        validateConfigFile({ providers: { one: { type, apiKey: 'k', baseUrl: 'http://127.0.0.1:9/' } } }),
        {},
      );
      expect(proxied.providers.one?.baseUrl).toBe('http://127.0.0.1:9');
    }
  });

  it('builds each kind’s adapter from its descriptor', async () => {
    for (const type of providerTypeNames) {
      const config = normalizeConfig(
        validateConfigFile({ providers: { one: { type, baseUrl: 'http://127.0.0.1:1', ...requiredSettings(type) } } }),
        {},
      );
      const adapter = createProviderAdapter(config.providers.one!, noDependencies);
      expect(typeof adapter.stream).toBe('function');
      await adapter.close?.();
    }
  });

  it('names each kind for telemetry, Gemini as the GenAI convention does', () => {
    expect(providerTypeNames.map((type) => genAiProviderName(type))).toEqual([
      'openai',
      'openai_compatible',
      'anthropic',
      'ollama',
      'gcp.gemini',
      'azure.ai.openai',
      'gcp.vertex_ai',
      'aws.bedrock',
      'interlingua.scripted',
    ]);
  });

  it('picks native tools for Gemini models and the prompted lane for Gemma on the same provider', () => {
    const config = normalizeConfig(
      validateConfigFile({ providers: { google: { type: 'gemini', baseUrl: 'https://generativelanguage.googleapis.com' } } }),
      {},
    );
    expect(resolveModel(providerKind, config, 'google/gemini-2.5-flash')).toMatchObject({
      providerType: 'gemini',
      toolCalling: 'native',
      family: 'generic-json',
    });
    expect(resolveModel(providerKind, config, 'google/gemma-3-27b-it')).toMatchObject({ toolCalling: 'prompted', family: 'gemma' });
  });

  it('finds Gemini from GEMINI_API_KEY when no config is given', async () => {
    const { file, notes } = await discoverProviders(
      { GEMINI_API_KEY: 'g-key' },
      providerDiscovery(async () => false),
    );
    expect(file.providers).toEqual({ gemini: { type: 'gemini', baseUrl: 'https://generativelanguage.googleapis.com', apiKey: 'g-key' } });
    expect(notes).toEqual(['provider "gemini" from GEMINI_API_KEY']);
  });

  it('names every kind’s variable in the first-run hint', async () => {
    const { notes } = await discoverProviders(
      {},
      providerDiscovery(async () => false),
    );
    expect(notes[0]).toContain(
      'For real models set OPENAI_API_KEY, ANTHROPIC_API_KEY, OLLAMA_HOST or GEMINI_API_KEY, or pass --config FILE',
    );
  });
});
