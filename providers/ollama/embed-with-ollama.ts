/** `/api/embed` behind the neutral embedding request: text inputs only, floats or OpenAI-style base64. */
import { invalidRequest, type EmbeddingRequest, type EmbeddingResult, type ProviderContext } from '../../src/core/index.js';
import type { OllamaConnection } from './ollama-connection.js';

export async function embedWithOllama(options: {
  connection: OllamaConnection;
  request: EmbeddingRequest;
  context: ProviderContext;
}): Promise<EmbeddingResult> {
  const { connection, request, context } = options;
  const input = readTextInput(request.input);
  const body = { model: request.model, input, ...(request.dimensions !== undefined ? { dimensions: request.dimensions } : {}) };
  const response = (await connection.client.readJson({
    path: '/api/embed',
    headers: connection.headers,
    json: body,
    cancellation: context.cancellation,
  })) as {
    embeddings?: unknown;
    prompt_eval_count?: unknown;
  } | null;
  const embeddings: unknown[] = Array.isArray(response?.embeddings) ? response.embeddings : [];
  const result: EmbeddingResult = {
    data: embeddings.map((embedding, index) => ({
      index,
      embedding: request.encodingFormat === 'base64' ? encodeBase64(embedding as number[]) : (embedding as number[]),
    })),
  };
  if (typeof response?.prompt_eval_count === 'number') {
    result.usage = { promptTokens: response.prompt_eval_count, totalTokens: response.prompt_eval_count };
  }
  return result;
}

/** Ollama embeds text only; OpenAI's token-array inputs have no equivalent. */
function readTextInput(input: EmbeddingRequest['input']): string | string[] {
  if (typeof input === 'string') return input;
  if (input.every((item): item is string => typeof item === 'string')) return input as string[];
  throw invalidRequest('Ollama embeddings accept text input only, not token arrays', 'input');
}

/** OpenAI's `encoding_format: "base64"`: little-endian float32 bytes, as its SDKs decode them. */
function encodeBase64(vector: number[]): string {
  const bytes = Buffer.alloc(vector.length * 4);
  vector.forEach((value, index) => bytes.writeFloatLE(value, index * 4));
  return bytes.toString('base64');
}
