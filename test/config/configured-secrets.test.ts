/** configuredSecrets: provider keys, every configured header value (and the credential after its scheme), client keys. */
import { describe, expect, it } from 'vitest';
import { configuredSecrets } from '../../src/config/configured-secrets.js';
import { normalizeConfig } from '../../src/config/normalize-config.js';
import { validateConfigFile } from '../../src/config/validate-config-file.js';

describe('configuredSecrets', () => {
  it('collects provider API keys, header values with their bare credentials, and client keys', () => {
    const config = normalizeConfig(
      validateConfigFile({
        server: { apiKeys: ['client-key-1'] },
        providers: {
          a: { type: 'openai', baseUrl: 'http://127.0.0.1:1/v1', apiKey: 'sk-provider-a', headers: { authorization: 'Bearer token-in-header', 'x-title': 'My App' } },
          b: { type: 'ollama', baseUrl: 'http://127.0.0.1:2' },
        },
      }),
      {},
    );
    expect(configuredSecrets(config).sort()).toEqual(['Bearer token-in-header', 'My App', 'client-key-1', 'sk-provider-a', 'token-in-header'].sort());
  });
});
