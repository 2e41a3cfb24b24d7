/** GET /health (readiness) and HEAD / (Claude Code's probe). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { version } from '../../../src/version.js';
import { startGateway, testProvider, type StartedGateway } from '../../helpers/start-gateway.js';

let gateway: StartedGateway;

beforeAll(async () => {
  // Nothing listens on these upstreams: health must not depend on them.
  gateway = await startGateway({
    providers: {
      local: testProvider('openai-compatible', 'http://127.0.0.1:9/v1'),
      home: testProvider('ollama', 'http://127.0.0.1:9'),
    },
  });
});

afterAll(async () => {
  await gateway?.close();
});

describe('health', () => {
  it('GET /health answers 200 with the version and the configured providers', async () => {
    const response = await fetch(`${gateway.baseUrl}/health`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok', version, providers: ['local', 'home'] });
  });

  it('HEAD / answers 200 with no body', async () => {
    const response = await fetch(`${gateway.baseUrl}/`, { method: 'HEAD' });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('');
  });
});
