/** Detecting the server behind an openai-compatible provider, from fakes answering each server's own endpoints. */
import { afterEach, describe, expect, it } from 'vitest';
import type { ProviderConfig } from '../../../src/config/config-types.js';
import { normalizeProvider } from '../../../src/config/normalize-config.js';
import type { ServerKind } from '../../../src/core/server-kind.js';
import { createOpenAiCompatibleServerProber } from '../../../providers/openai-compatible/openai-compatible-server-prober.js';
import type { LoopbackServer } from '../../helpers/loopback-server.js';
import { startProbeFake, type ProbeFakeKind, type ProbeFakeOptions } from '../../helpers/server-probe-fakes.js';

let fake: LoopbackServer | undefined;

afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

function providerAt(baseUrl: string, extra: Record<string, unknown> = {}): ProviderConfig {
  return normalizeProvider('local', { type: 'openai-compatible', baseUrl, ...extra } as Parameters<typeof normalizeProvider>[1]);
}

async function detect(kind: ProbeFakeKind, options: ProbeFakeOptions = {}, extra: Record<string, unknown> = {}) {
  fake = await startProbeFake(kind, options);
  return createOpenAiCompatibleServerProber(providerAt(`${fake.url}/v1`, extra)).detect(new AbortController().signal);
}

describe('openai-compatible server detection', () => {
  it('finds vLLM by GET /version, with its version, and tries native tools until refused', async () => {
    expect(await detect('vllm')).toEqual({ server: 'vllm', found: 'detected', version: '0.11.2', toolParsing: 'until-refused' });
    // The servers' own endpoints are at the host root, beside /v1.
    expect(fake?.requests.map((request) => request.path)).toContain('/version');
  });

  it('finds vLLM behind a proxy that passes only /v1 by its listing owned_by', async () => {
    expect(await detect('vllm-behind-proxy')).toMatchObject({ server: 'vllm', found: 'detected', toolParsing: 'until-refused' });
  });

  it.each([
    ['a tool-call parser', 'qwen25', 'every-model'],
    ['no tool-call parser', null, 'no-model'],
  ] as const)('finds SGLang by /get_server_info and reads whether it was started with %s', async (_name, parser, parsing) => {
    expect(await detect('sglang', { toolCallParser: parser })).toEqual({
      server: 'sglang',
      found: 'detected',
      version: '0.5.4',
      toolParsing: parsing,
      servedModel: ['Qwen/Qwen3-8B'],
    });
  });

  it.each([
    [true, 'until-refused'],
    [false, 'no-model'],
  ] as const)('finds llama-server by /props (template calls tools: %s) with its build', async (callsTools, parsing) => {
    expect(await detect('llama.cpp', { templateCallsTools: callsTools })).toEqual({
      server: 'llama.cpp',
      found: 'detected',
      version: 'b7100-1a2b3c4',
      toolParsing: parsing,
      servedModel: ['/models/Qwen3-8B-Q4_K_M.gguf'],
    });
  });

  it.each(['lmstudio', 'lmstudio-v1'] as const)('finds LM Studio by its own listing (%s) with each model’s tool use', async (kind) => {
    const profile = await detect(kind, { models: ['qwen3-8b', 'gemma-3-270m'], toolModels: ['qwen3-8b'] });
    expect(profile).toMatchObject({ server: 'lmstudio', found: 'detected', toolParsing: 'per-model' });
    expect([...(profile.models ?? [])]).toEqual([
      ['qwen3-8b', true],
      ['gemma-3-270m', false],
    ]);
  });

  it('finds Ollama’s /v1 by /api/version and reads each model’s tools capability from /api/show', async () => {
    const profile = await detect('ollama', { models: ['qwen3:8b', 'gemma3:270m'], toolModels: ['qwen3:8b'] });
    expect(profile).toMatchObject({ server: 'ollama', found: 'detected', version: '0.13.1', toolParsing: 'per-model' });
    expect([...(profile.models ?? [])]).toEqual([
      ['qwen3:8b', true],
      ['gemma3:270m', false],
    ]);
    expect(profile.strippingWarning).toContain('gemma3:270m');
  });

  it('reads what each model is beside its served name: vLLM’s root (a LoRA’s base through its parent), LM Studio’s arch, Ollama’s GGUF names', async () => {
    const vllm = await detect('vllm', { models: ['my-model', 'Qwen/Qwen3-8B'], roots: { 'my-model': '/models/Qwen3-8B' } });
    // A model served under its own path says nothing more.
    expect([...(vllm.identities ?? [])]).toEqual([['my-model', ['/models/Qwen3-8B']]]);
    await fake?.close();
    const lmStudio = await detect('lmstudio', { models: ['my-model'] });
    expect([...(lmStudio.identities ?? [])]).toEqual([['my-model', ['qwen3']]]);
    await fake?.close();
    const ollama = await detect('ollama', {
      models: ['my-model:latest'],
      ggufNames: { 'my-model:latest': { architecture: 'qwen3', basename: 'Qwen3' } },
    });
    // Ollama reads an untagged name as its :latest tag.
    expect([...(ollama.identities ?? [])]).toEqual([
      ['my-model:latest', ['Qwen3', 'qwen3']],
      ['my-model', ['Qwen3', 'qwen3']],
    ]);
  });

  it('calls a server that answers none of them generic, and one that answers nothing unreachable', async () => {
    expect(await detect('generic')).toEqual({ server: 'generic', found: 'detected', toolParsing: 'unknown' });
    await fake?.close();
    const closed = createOpenAiCompatibleServerProber(providerAt(`${fake?.url}/v1`));
    fake = undefined;
    expect(await closed.detect(new AbortController().signal)).toEqual({ found: 'unreachable', toolParsing: 'unknown' });
  });

  it('keeps a configured server kind whatever answers, reading only what that kind tells', async () => {
    const cases: [ProbeFakeKind, ServerKind, object][] = [
      ['llama.cpp', 'vllm', { server: 'vllm', found: 'configured', toolParsing: 'until-refused' }],
      ['vllm', 'vllm', { server: 'vllm', found: 'configured', version: '0.11.2' }],
      ['generic', 'generic', { server: 'generic', found: 'configured', toolParsing: 'unknown' }],
    ];
    for (const [kind, configured, expected] of cases) {
      expect(await detect(kind, {}, { server: configured })).toMatchObject(expected);
      await fake?.close();
      fake = undefined;
    }
  });

  it('sends the provider’s key and headers on its probes', async () => {
    await detect('vllm', {}, { apiKey: 'sk-probe', headers: { 'X-Team': 'a' } });
    const probe = fake?.requests.find((request) => request.path === '/version');
    expect(probe?.headers.authorization).toBe('Bearer sk-probe');
    expect(probe?.headers['x-team']).toBe('a');
  });

  it('asks an Ollama behind /v1 about a model it did not list, one model at a time', async () => {
    fake = await startProbeFake('ollama', { models: ['qwen3:8b'], toolModels: ['qwen3:8b'] });
    const prober = createOpenAiCompatibleServerProber(providerAt(`${fake.url}/v1`));
    const signal = new AbortController().signal;
    const profile = await prober.detect(signal);
    expect(await prober.readModel?.('qwen3:8b', profile, signal)).toEqual({ parsesToolCalls: true });
    expect(await prober.readModel?.('missing:1b', profile, signal)).toBeUndefined();
  });
});
