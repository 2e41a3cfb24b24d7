/** `/api/tags` → the neutral model list (ids are Ollama model names such as `llama3.1:8b`). */
import type { ModelInfo, ProviderContext } from '../../src/core/index.js';
import { callOllama } from './call-ollama.js';
import type { OllamaClient } from './ollama-client.js';

export async function listOllamaModels(options: {
  client: OllamaClient;
  provider: string;
  context: ProviderContext;
}): Promise<ModelInfo[]> {
  const { client, provider, context } = options;
  const response = await callOllama({ provider, signal: context.signal }, () => client.list());
  const models: unknown[] = Array.isArray(response?.models) ? response.models : [];
  return models.flatMap((entry): ModelInfo[] => {
    const model = entry as { name?: unknown; modified_at?: unknown };
    if (typeof model.name !== 'string') return [];
    const info: ModelInfo = { id: model.name };
    // JSON gives `modified_at` as text, whatever the package's types say.
    const modified = Date.parse(String(model.modified_at));
    if (Number.isFinite(modified)) info.created = Math.floor(modified / 1000);
    return [info];
  });
}
