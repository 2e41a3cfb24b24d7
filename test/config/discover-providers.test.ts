/** The no-config default: providers from OPENAI_API_KEY, ANTHROPIC_API_KEY, OLLAMA_HOST, or a local Ollama that answers. */
import { describe, expect, it, vi } from 'vitest';
import { localOllamaUrl, probeOllama, providerDiscovery } from '../../providers/index.js';
import { discoverProviders } from '../../src/config/discover-providers.js';
import { startFakeOllamaUpstream } from '../helpers/fake-ollama-upstream.js';
import { startLoopbackServer } from '../helpers/loopback-server.js';

describe('discoverProviders', () => {
  it.each([
    ['0.0.0.0:11434', 'http://127.0.0.1:11434'],
    ['127.0.0.1:11500', 'http://127.0.0.1:11500'],
    ['http://gpu-box:11434/', 'http://gpu-box:11434'],
    ['https://ollama.example.org', 'https://ollama.example.org'],
    [' localhost:11434 ', 'http://localhost:11434'],
  ])('reads OLLAMA_HOST=%j as %s, without probing', async (host, baseUrl) => {
    const probe = vi.fn(async () => true);
    const { file } = await discoverProviders({ OLLAMA_HOST: host }, providerDiscovery(probe));
    expect(file.providers?.ollama).toEqual({ type: 'ollama', baseUrl });
    expect(probe).not.toHaveBeenCalled();
  });

  it('honours OPENAI_BASE_URL and ANTHROPIC_BASE_URL next to the keys', async () => {
    const { file } = await discoverProviders(
      { OPENAI_API_KEY: 'a', OPENAI_BASE_URL: 'http://127.0.0.1:1/v1', ANTHROPIC_API_KEY: 'b', ANTHROPIC_BASE_URL: 'http://127.0.0.1:2' },
      providerDiscovery(async () => false),
    );
    expect(file.providers).toEqual({
      openai: { type: 'openai', baseUrl: 'http://127.0.0.1:1/v1', apiKey: 'a' },
      anthropic: { type: 'anthropic', baseUrl: 'http://127.0.0.1:2', apiKey: 'b' },
    });
  });

  it('ignores empty keys, and with nothing found serves the scripted demo provider', async () => {
    const { file, notes } = await discoverProviders(
      { OPENAI_API_KEY: '', ANTHROPIC_API_KEY: '' },
      providerDiscovery(async () => false),
    );
    expect(file.providers).toEqual({ demo: { type: 'scripted' } });
    expect(notes).toHaveLength(1);
    expect(notes[0]).toContain('demo/qwen3-8b');
  });

  it('probes the local Ollama address when OLLAMA_HOST is unset', async () => {
    const probe = vi.fn(async () => true);
    const { file, notes } = await discoverProviders({}, providerDiscovery(probe));
    expect(probe).toHaveBeenCalledWith(localOllamaUrl);
    expect(file.providers?.ollama).toEqual({ type: 'ollama', baseUrl: localOllamaUrl });
    expect(notes.join()).toContain('a local Ollama answered');
  });
});

describe('probeOllama', () => {
  it('is true when /api/version answers', async () => {
    const ollama = await startFakeOllamaUpstream();
    try {
      ollama.enqueue({ type: 'raw', path: '/api/version', status: 200, contentType: 'application/json', body: '{"version":"0.12.0"}' });
      expect(await probeOllama(ollama.url)).toBe(true);
      expect(ollama.requests.at(-1)?.path).toBe('/api/version');
    } finally {
      await ollama.close();
    }
  });

  it('is false for an error status, a refused connection and a server that never answers', async () => {
    const ollama = await startFakeOllamaUpstream();
    const silent = await startLoopbackServer(async (_request, response) => {
      await new Promise((resolve) => response.once('close', resolve));
    });
    try {
      expect(await probeOllama(ollama.url)).toBe(false);
      const port = ollama.port;
      await ollama.close();
      expect(await probeOllama(`http://127.0.0.1:${port}`)).toBe(false);
      const started = performance.now();
      expect(await probeOllama(silent.url)).toBe(false);
      expect(performance.now() - started).toBeLessThan(2_000);
    } finally {
      await silent.close();
    }
  });
});
