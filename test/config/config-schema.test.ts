/** The config file's type, derived from its schema (provider kinds' own settings included), agrees with the validator. */
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { ProviderType } from '../../src/core/provider-types.js';
import { configFileSchema, type ClientKeyEntry, type ConfigFile, type ProviderEntry } from '../../src/config/config-schema.js';
import { normalizeConfig } from '../../src/config/normalize-config.js';
import { compileConfigFileValidator } from '../../src/config/validate-config-file.js';

const validateConfigFile = compileConfigFileValidator();
import type { RequiredKeys } from '../helpers/schema-contract.js';

/** A file with every section, written to the type alone: the compiler checks it, the validator must accept it. */
const fullFile: ConfigFile = {
  server: {
    host: '127.0.0.1',
    port: 0,
    apiKeys: ['sk-plain', { key: 'sk-ci', name: 'ci', models: ['local/*'], tools: { deny: ['shell'] }, limits: { requestsPerMinute: 60 } }],
    limits: { concurrentStreams: 8 },
    logLevel: 'warn',
    requestTimeoutMs: 30_000,
  },
  providers: {
    local: {
      type: 'openai-compatible',
      baseUrl: 'http://127.0.0.1:9/v1',
      apiKey: 'local-key',
      headers: { 'x-team': 'a' },
      toolCalling: 'prompted',
      timeouts: { connectMs: 1_000 },
      limits: { maxEventBytes: 4_096 },
      retries: { count: 2 },
      models: { 'qwen3-8b': { family: 'hermes', startsInReasoning: false } },
      maxConnections: 4,
    },
    demo: { type: 'scripted', script: 'replay.yaml' },
  },
  agentFormats: { default: 'openai', rules: [{ header: 'user-agent', contains: 'codex', format: 'codex' }] },
  debug: { recentReplies: 10 },
  state: { onRedisError: 'closed', responseTtlSeconds: 60 },
  telemetry: { serviceName: 'gateway', headers: { authorization: 'Bearer t' } },
  aliases: { 'claude-sonnet-4-5': 'local/qwen3-8b' },
  fallbacks: { 'local/qwen3-8b': ['demo/qwen3-8b'] },
  fallbackOn: [429, '5xx', 'timeout'],
};

describe('the config file type derived from configFileSchema', () => {
  it('has each provider kind own settings, from the kind folder that owns them', () => {
    expectTypeOf<ProviderEntry['type']>().toEqualTypeOf<ProviderType>();
    // `script` is contributed by providers/scripted, not written in config-schema.ts.
    expectTypeOf<ProviderEntry['script']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<RequiredKeys<ProviderEntry>>().toEqualTypeOf<'type'>();
    expect(configFileSchema.properties.providers.additionalProperties.properties.script).toEqual({ type: 'string', minLength: 1 });
  });

  it('types the enums and unions normalizeConfig reads', () => {
    expectTypeOf<ProviderEntry['toolCalling']>().toEqualTypeOf<'auto' | 'native' | 'prompted' | undefined>();
    expectTypeOf<NonNullable<ConfigFile['state']>['onRedisError']>().toEqualTypeOf<'open' | 'closed' | undefined>();
    expectTypeOf<NonNullable<ConfigFile['fallbackOn']>[number]>().toEqualTypeOf<number | '5xx' | 'timeout' | 'connect'>();
    expectTypeOf<Extract<ClientKeyEntry, object>['key']>().toEqualTypeOf<string>();
    expectTypeOf<Extract<ClientKeyEntry, string>>().toEqualTypeOf<string>();
  });

  it('accepts a file written to the type, and normalizes it', () => {
    expect(validateConfigFile(fullFile)).toEqual(fullFile);
    const config = normalizeConfig(validateConfigFile(fullFile), {});
    expect(config.providers.demo?.script).toBe('replay.yaml');
    expect(config.server.clientKeys.map((clientKey) => clientKey.name)).toEqual(['key-1', 'ci']);
  });

  it('refuses what the type rules out, with the validator own wording', () => {
    // @ts-expect-error an unknown setting is a type error, as it is a validation error
    const unknownSetting: ConfigFile = { providers: { local: { type: 'ollama', baseUrl: 'http://127.0.0.1:9', colour: 'red' } } };
    expect(() => validateConfigFile(unknownSetting)).toThrow('providers.local.colour: is not a known setting');
    // @ts-expect-error 'watsonx' is not a provider kind
    const unknownKind: ConfigFile = { providers: { cloud: { type: 'watsonx', baseUrl: 'http://127.0.0.1:9' } } };
    expect(() => validateConfigFile(unknownKind)).toThrow(/providers\.cloud\.type: must be one of openai, openai-compatible/);
  });

  it('says what an alias or a deployment target must name when it names a deployment instead', () => {
    const providers = { local: { type: 'ollama' as const, baseUrl: 'http://127.0.0.1:9' } };
    const expected = "must be a configured provider's model as provider/model (not an alias or a deployment name)";
    expect(() => validateConfigFile({ providers, aliases: { fast: 'coder' } })).toThrow(`aliases.fast: ${expected}`);
    expect(() => validateConfigFile({ providers, deployments: { coder: { targets: [{ model: 'fast' }] } } })).toThrow(
      `deployments.coder.targets.0.model: ${expected}`,
    );
  });
});
