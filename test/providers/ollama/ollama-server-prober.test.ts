/** The ollama provider's prober: the kind is its type; each model's tools capability comes from /api/show. */
import { afterEach, describe, expect, it } from 'vitest';
import { normalizeProvider } from '../../../src/config/normalize-config.js';
import { createOllamaServerProber } from '../../../providers/ollama/ollama-server-prober.js';
import type { LoopbackServer } from '../../helpers/loopback-server.js';
import { startProbeFake } from '../../helpers/server-probe-fakes.js';

let fake: LoopbackServer | undefined;

afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const proberAt = (baseUrl: string) => createOllamaServerProber(normalizeProvider('home', { type: 'ollama', baseUrl }));

describe('ollama server prober', () => {
  it('reads the version and each listed model’s tools capability, and warns of the template-only ones', async () => {
    fake = await startProbeFake('ollama', { models: ['qwen3:8b', 'gemma3:270m'], toolModels: ['qwen3:8b'] });
    const profile = await proberAt(fake.url).detect(new AbortController().signal);
    expect(profile).toMatchObject({ server: 'ollama', found: 'configured', version: '0.13.1', toolParsing: 'per-model' });
    expect(profile.models?.get('qwen3:8b')).toBe(true);
    expect(profile.models?.get('gemma3:270m')).toBe(false);
    expect(profile.strippingWarning).toMatch(/gemma3:270m.*cannot be told.*Fix: /s);
    const shown = fake.requests.filter((request) => request.path === '/api/show').map((request) => request.body);
    expect(shown).toEqual([{ model: 'qwen3:8b' }, { model: 'gemma3:270m' }]);
  });

  it('gives no warning when every model has tools, and asks about a model one request at a time', async () => {
    fake = await startProbeFake('ollama', { models: ['qwen3:8b', 'llama3.1:8b'], toolModels: ['qwen3:8b', 'llama3.1:8b'] });
    const prober = proberAt(fake.url);
    const signal = new AbortController().signal;
    const profile = await prober.detect(signal);
    expect(profile.strippingWarning).toBeUndefined();
    expect(await prober.readModel?.('llama3.1:8b', profile, signal)).toEqual({ parsesToolCalls: true });
  });

  it('says unreachable, still Ollama, when nothing answers', async () => {
    fake = await startProbeFake('ollama');
    const url = fake.url;
    await fake.close();
    fake = undefined;
    expect(await proberAt(url).detect(new AbortController().signal)).toEqual({
      server: 'ollama',
      found: 'unreachable',
      toolParsing: 'per-model',
    });
  });
});
