/** Lists the models of an Anthropic upstream (GET /v1/models, following its cursor pages). */
import type { ProviderConfig } from '../../src/config/config-types.js';
import type { ModelInfo, ProviderContext } from '../../src/core/index.js';
import type { UpstreamClient } from '../../src/http/upstream-client.js';
import { buildAnthropicHeaders } from './build-anthropic-headers.js';
import { asRecord, parseJsonLoosely, readString } from '../../src/http/read-loose-json.js';

/** A guard against an upstream whose `has_more` never turns false. */
const maximumPages = 20;

function toModelInfo(entry: unknown): ModelInfo | undefined {
  const record = asRecord(entry);
  const id = readString(record, 'id');
  if (!id) return undefined;
  const info: ModelInfo = { id };
  // `created_at` is an RFC 3339 string (https://docs.anthropic.com/en/api/models-list); `created` is Unix seconds.
  const createdAt = Date.parse(readString(record, 'created_at') ?? '');
  if (Number.isFinite(createdAt)) info.created = Math.floor(createdAt / 1000);
  return info;
}

export async function listAnthropicModels(client: UpstreamClient, config: ProviderConfig, context: ProviderContext): Promise<ModelInfo[]> {
  const headers = buildAnthropicHeaders(config, { json: false });
  const models: ModelInfo[] = [];
  let afterId: string | undefined;
  for (let page = 0; page < maximumPages; page++) {
    const query = new URLSearchParams({ limit: '1000' });
    if (afterId) query.set('after_id', afterId);
    const text = await client.readText({ path: `/v1/models?${query.toString()}`, headers, cancellation: context.cancellation });
    const payload = asRecord(parseJsonLoosely(text));
    const data = Array.isArray(payload?.data) ? payload.data : [];
    for (const entry of data) {
      const info = toModelInfo(entry);
      if (info) models.push(info);
    }
    afterId = readString(payload, 'last_id');
    if (payload?.has_more !== true || !afterId) break;
  }
  return models;
}
