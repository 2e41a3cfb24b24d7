/** Model addressing: split only at a configured provider name, the model part whole, family and tool-calling lane. */
import { describe, expect, it } from 'vitest';
import { providerKind } from '../../providers/index.js';
import { normalizeConfig } from '../../src/config/normalize-config.js';
import { resolveModel } from '../../src/config/resolve-model.js';
import { GatewayError } from '../../src/core/gateway-error.js';
import type { ServerDirectory } from '../../src/core/server-directory.js';

const config = normalizeConfig(
  {
    providers: {
      local: {
        type: 'openai-compatible',
        baseUrl: 'http://127.0.0.1:8000/v1',
        models: { 'my-org/custom': { family: 'mistral', toolCalling: 'native' }, pinned: { family: 'llama3' } },
      },
      ollama: {
        type: 'ollama',
        baseUrl: 'http://127.0.0.1:11434',
        toolCalling: 'native',
        models: { 'dolphin3:8b': { toolCalling: 'prompted' } },
      },
      oai: { type: 'openai', baseUrl: 'https://api.openai.com/v1' },
      claude: { type: 'anthropic', baseUrl: 'https://api.anthropic.com' },
      'local.v2': { type: 'openai-compatible', baseUrl: 'http://127.0.0.1:8001/v1', toolCalling: 'prompted' },
    },
  },
  {},
);

function rejection(action: () => unknown): GatewayError {
  try {
    action();
  } catch (error) {
    if (GatewayError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a GatewayError');
}

describe('resolveModel', () => {
  it('sends local/Qwen/Qwen3-8B to provider local as Qwen/Qwen3-8B, family from the model part', () => {
    expect(resolveModel(providerKind, config, 'local/Qwen/Qwen3-8B')).toEqual({
      id: 'local/Qwen/Qwen3-8B',
      provider: 'local',
      providerType: 'openai-compatible',
      model: 'Qwen/Qwen3-8B',
      family: 'hermes',
      toolCalling: 'prompted',
    });
  });

  it('takes the model whole when the route fixes the provider', () => {
    expect(resolveModel(providerKind, config, 'ollama/llama3.1:8b', 'local')).toMatchObject({
      provider: 'local',
      model: 'ollama/llama3.1:8b',
      id: 'local/ollama/llama3.1:8b',
    });
  });

  it('splits at the first slash only, and only at a configured name', () => {
    expect(resolveModel(providerKind, config, 'local.v2/a/b/c')).toMatchObject({ provider: 'local.v2', model: 'a/b/c' });
    expect(rejection(() => resolveModel(providerKind, config, 'Qwen/Qwen3-8B'))).toMatchObject({
      status: 404,
      code: 'model_not_found',
      param: 'model',
    });
  });

  it('is a 404 naming every configured provider for an unknown prefix or none', () => {
    const unknown = rejection(() => resolveModel(providerKind, config, 'azure/gpt-4o'));
    expect(unknown.message).toContain("Unknown provider 'azure'");
    expect(unknown.message).toContain('local, ollama, oai, claude, local.v2');
    expect(rejection(() => resolveModel(providerKind, config, 'gpt-4o')).message).toContain('has no provider prefix');
    expect(rejection(() => resolveModel(providerKind, config, 'm', 'nowhere')).status).toBe(404);
  });

  it('is a 404, not a crash, for a provider or model named like an Object.prototype member', () => {
    for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf']) {
      expect(rejection(() => resolveModel(providerKind, config, `${name}/x`))).toMatchObject({ status: 404, code: 'model_not_found' });
      expect(rejection(() => resolveModel(providerKind, config, 'x', name))).toMatchObject({ status: 404, code: 'model_not_found' });
      // A per-model override lookup with such a model id finds no override.
      const plain = resolveModel(providerKind, config, 'local/some-model');
      expect(resolveModel(providerKind, config, `local/${name}`)).toEqual({ ...plain, id: `local/${name}`, model: name });
    }
  });

  it('lists "(none configured)" when there are no providers', () => {
    expect(rejection(() => resolveModel(providerKind, normalizeConfig({}, {}), 'a/b')).message).toContain('(none configured)');
  });

  it('uses native tools on the first-party APIs whatever the family says', () => {
    expect(resolveModel(providerKind, config, 'oai/gpt-oss-120b')).toMatchObject({ family: 'harmony', toolCalling: 'native' });
    expect(resolveModel(providerKind, config, 'claude/claude-sonnet-4-5')).toMatchObject({ toolCalling: 'native' });
  });

  it('follows the family table under auto, and the provider setting otherwise', () => {
    expect(resolveModel(providerKind, config, 'local/gpt-4o-mini')).toMatchObject({ family: 'generic-json', toolCalling: 'native' });
    expect(resolveModel(providerKind, config, 'local/meta-llama/Llama-3.1-8B-Instruct')).toMatchObject({
      family: 'llama3',
      toolCalling: 'prompted',
    });
    expect(resolveModel(providerKind, config, 'ollama/qwen3:8b')).toMatchObject({ family: 'hermes', toolCalling: 'native' });
    expect(resolveModel(providerKind, config, 'local.v2/gpt-4o-mini')).toMatchObject({ toolCalling: 'prompted' });
  });

  it('applies per-model overrides for family and tool calling', () => {
    expect(resolveModel(providerKind, config, 'local/my-org/custom')).toMatchObject({ family: 'mistral', toolCalling: 'native' });
    expect(resolveModel(providerKind, config, 'ollama/dolphin3:8b')).toMatchObject({ toolCalling: 'prompted' });
  });

  it('takes the family from what the server reports when the name names none, and never over the config', () => {
    // vllm serve Qwen/Qwen3-4B-Thinking-2507 --served-model-name my-model (and the same for `pinned`).
    const identities: Record<string, string[]> = {
      'my-model': ['Qwen/Qwen3-4B-Thinking-2507'],
      pinned: ['Qwen/Qwen3-8B'],
      'gpt-4o': ['Qwen/Qwen3-8B'],
    };
    const servers: ServerDirectory = {
      server: () => 'generic',
      autoToolCalling: () => undefined,
      modelIdentity: (_provider, model) => identities[model],
      rememberNativeRefused: () => undefined,
      noticeFailure: () => undefined,
      report: () => undefined,
    };
    const resolve = (model: string) => resolveModel(providerKind, config, model, undefined, undefined, servers);
    expect(resolve('local/my-model')).toMatchObject({
      family: 'hermes',
      familyFromServer: 'Qwen3-4B-Thinking-2507',
      toolCalling: 'prompted',
      opensInReasoning: 'by-default',
    });
    expect(resolve('local/pinned')).toMatchObject({ family: 'llama3' });
    expect(resolve('local/pinned').familyFromServer).toBeUndefined();
    // A hosted model's name (the table's generic-json entry) is no local family: the server's report wins,
    // and without one the name keeps its family.
    expect(resolve('local/gpt-4o')).toMatchObject({ family: 'hermes', familyFromServer: 'Qwen3-8B' });
    expect(resolve('local/gpt-4o-mini')).toMatchObject({ family: 'generic-json', toolCalling: 'native' });
    // Nothing reported: as before.
    expect(resolve('local/other-model')).toMatchObject({ family: 'generic-json', toolCalling: 'native' });
    expect(resolve('local/other-model').familyFromServer).toBeUndefined();
  });
});
