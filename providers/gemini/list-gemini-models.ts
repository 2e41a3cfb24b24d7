/** Lists a Gemini upstream's models (GET /v1beta/models, following its page tokens). https://ai.google.dev/api/models#method:-models.list */
import type { ModelInfo, ProviderContext } from '../../src/core/index.js';
import { asRecord, parseJsonLoosely, readString } from '../../src/http/read-loose-json.js';
import type { GeminiUpstream } from './send-gemini-request.js';

/** A guard against an upstream whose `nextPageToken` never runs out. */
const maximumPages = 20;

/** Only models that can chat: embedding and other models list other methods. */
function toModelInfo(entry: unknown): ModelInfo | undefined {
  const record = asRecord(entry);
  const methods = record?.supportedGenerationMethods;
  if (Array.isArray(methods) && !methods.includes('generateContent')) return undefined;
  const name = readString(record, 'name');
  if (!name) return undefined;
  return { id: name.replace(/^models\//, ''), ownedBy: 'google' };
}

export async function listGeminiModels(upstream: GeminiUpstream, context: ProviderContext): Promise<ModelInfo[]> {
  const models: ModelInfo[] = [];
  let pageToken: string | undefined;
  for (let page = 0; page < maximumPages; page++) {
    const query = new URLSearchParams({ pageSize: '1000' });
    if (pageToken) query.set('pageToken', pageToken);
    const text = await upstream.readText({ path: `/v1beta/models?${query.toString()}`, cancellation: context.cancellation });
    const payload = asRecord(parseJsonLoosely(text));
    for (const entry of Array.isArray(payload?.models) ? payload.models : []) {
      const info = toModelInfo(entry);
      if (info) models.push(info);
    }
    pageToken = readString(payload, 'nextPageToken');
    if (!pageToken) break;
  }
  return models;
}
