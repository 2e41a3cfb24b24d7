/** `/api/tags` → the neutral model list (ids are Ollama model names such as `llama3.1:8b`). */
import type { ModelInfo, ProviderContext } from '../../src/core/index.js';
import type { OllamaConnection } from './ollama-connection.js';

export async function listOllamaModels(options: { connection: OllamaConnection; context: ProviderContext }): Promise<ModelInfo[]> {
  const { connection, context } = options;
  const response = (await connection.client.readJson({
    path: '/api/tags',
    headers: connection.headers,
    cancellation: context.cancellation,
  })) as { models?: unknown } | null;
  const models: unknown[] = Array.isArray(response?.models) ? response.models : [];
  return models.flatMap((entry): ModelInfo[] => {
    const model = entry as { name?: unknown; modified_at?: unknown };
    if (typeof model.name !== 'string') return [];
    const info: ModelInfo = { id: model.name };
    const modified = Date.parse(String(model.modified_at));
    if (Number.isFinite(modified)) info.created = Math.floor(modified / 1000);
    return [info];
  });
}
