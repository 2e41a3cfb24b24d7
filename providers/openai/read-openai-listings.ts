/**
 * The bodies of `GET /models` and `POST /embeddings`, read loosely into the neutral shapes.
 * Wire formats: https://platform.openai.com/docs/api-reference/models/list and
 * https://platform.openai.com/docs/api-reference/embeddings/object
 */
import { gatewayError } from '../../src/core/gateway-error.js';
import type { EmbeddingResult, ModelInfo } from '../../src/core/provider-adapter.js';
import { asRecord } from '../../src/http/read-loose-json.js';

/** The `data` array of a list body; a body without one is not the answer asked for. */
function listData(body: unknown, provider: string, what: string): unknown[] {
  const data = asRecord(body)?.data;
  if (Array.isArray(data)) return data;
  throw gatewayError('upstream_bad_response', {
    message: `Upstream provider '${provider}' sent a reply that is not ${what}.`,
    upstreamBody: body,
  });
}

export function readOpenAiModels(body: unknown, provider: string): ModelInfo[] {
  return listData(body, provider, 'a model list').flatMap((entry): ModelInfo[] => {
    const model = asRecord(entry);
    if (typeof model?.id !== 'string') return [];
    const info: ModelInfo = { id: model.id };
    if (typeof model.created === 'number') info.created = model.created;
    if (typeof model.owned_by === 'string') info.ownedBy = model.owned_by;
    return [info];
  });
}

export function readOpenAiEmbeddings(body: unknown, provider: string): EmbeddingResult {
  const data = listData(body, provider, 'a list of embeddings').map((entry, position) => {
    const item = asRecord(entry);
    const embedding = item?.embedding;
    return {
      index: typeof item?.index === 'number' ? item.index : position,
      embedding: Array.isArray(embedding) || typeof embedding === 'string' ? (embedding as number[] | string) : [],
    };
  });
  const result: EmbeddingResult = { data };
  const usage = asRecord(asRecord(body)?.usage);
  // An embedding's tokens are all input, so either count stands for both: Jina sends total_tokens alone
  // (https://github.com/api7/aisix/issues/474).
  const promptTokens = typeof usage?.prompt_tokens === 'number' ? usage.prompt_tokens : undefined;
  const totalTokens = typeof usage?.total_tokens === 'number' ? usage.total_tokens : undefined;
  if (promptTokens !== undefined || totalTokens !== undefined)
    result.usage = { promptTokens: promptTokens ?? (totalTokens as number), totalTokens: totalTokens ?? (promptTokens as number) };
  return result;
}
