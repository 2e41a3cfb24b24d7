/** configuredSecrets: provider keys, every configured header value (and the credential after its scheme), client keys, the Redis password, OTLP headers; and the telemetry section they come from. */
import { describe, expect, it } from 'vitest';
import { configuredSecrets } from '../../src/config/configured-secrets.js';
import { normalizeConfig } from '../../src/config/normalize-config.js';
import { compileConfigFileValidator } from '../../src/config/validate-config-file.js';

/** The config schema is compiled once for the file (as the loader does once per load). */
const validateConfigFile = compileConfigFileValidator();

describe('configuredSecrets', () => {
  it('collects provider API keys, header values with their bare credentials, and client keys', () => {
    const config = normalizeConfig(
      validateConfigFile({
        server: { apiKeys: ['client-key-1'] },
        providers: {
          a: {
            type: 'openai',
            baseUrl: 'http://127.0.0.1:1/v1',
            apiKey: 'sk-provider-a',
            headers: { authorization: 'Bearer token-in-header', 'x-title': 'My App' },
          },
          b: { type: 'ollama', baseUrl: 'http://127.0.0.1:2' },
        },
      }),
      {},
    );
    expect(configuredSecrets(config).sort()).toEqual(
      ['Bearer token-in-header', 'My App', 'client-key-1', 'sk-provider-a', 'token-in-header'].sort(),
    );
  });

  it('collects the Redis URL password, as written and percent-decoded, and nothing from a URL without one', () => {
    const withPassword = normalizeConfig(
      validateConfigFile({ providers: {}, state: { redis: 'redis://gateway:p%40ss-w0rd@127.0.0.1:6379/0' } }),
      {},
    );
    expect(configuredSecrets(withPassword).sort()).toEqual(['p%40ss-w0rd', 'p@ss-w0rd']);
    const withoutPassword = normalizeConfig(validateConfigFile({ providers: {}, state: { redis: 'redis://127.0.0.1:6379/0' } }), {});
    expect(configuredSecrets(withoutPassword)).toEqual([]);
  });

  it("collects the password of a provider's baseUrl (a proxy's basic auth), as written and percent-decoded", () => {
    const config = normalizeConfig(
      validateConfigFile({
        providers: {
          proxied: { type: 'openai-compatible', baseUrl: 'http://team:pa%40ss-word@127.0.0.1:1/v1' },
          plain: { type: 'openai-compatible', baseUrl: 'http://127.0.0.1:2/v1' },
        },
      }),
      {},
    );
    expect(configuredSecrets(config).sort()).toEqual(['pa%40ss-word', 'pa@ss-word'].sort());
  });

  it('collects the OTLP export headers (a tracing vendor’s key)', () => {
    const config = normalizeConfig(
      validateConfigFile({
        providers: {},
        telemetry: { otlpEndpoint: 'https://otlp.example.com', headers: { 'x-vendor-key': 'otlp-secret-1' } },
      }),
      {},
    );
    expect(configuredSecrets(config)).toEqual(['otlp-secret-1']);
  });

  it('refuses a telemetry endpoint that is not an http(s) URL, naming the path', () => {
    expect(() => validateConfigFile({ providers: {}, telemetry: { otlpEndpoint: 'collector:4318' } })).toThrow(/telemetry\.otlpEndpoint/);
    expect(() => validateConfigFile({ providers: {}, telemetry: { endpoint: 'http://127.0.0.1:4318' } })).toThrow(
      /telemetry\.endpoint: is not a known setting/,
    );
  });
});
