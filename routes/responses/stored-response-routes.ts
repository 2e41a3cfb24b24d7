/** GET and DELETE /v1/responses/{id} and GET /v1/responses/{id}/input_items, read from the response store. */
import type { FastifyInstance } from 'fastify';
import { gatewayError, invalidRequest } from '../../src/core/gateway-error.js';
import type { StoredResponse } from './response-store.js';
import type { StoredResponses } from './stored-responses.js';
import { inputItemResource } from './input-item-resource.js';

type IdParams = { id: string };
type ListQuery = { limit?: string; order?: string; after?: string; before?: string };

function responseNotFound(id: string) {
  return gatewayError('response_not_found', {
    message: `Response with id '${id}' not found. This gateway keeps recent responses (not those created with store: false) for state.responseTtlSeconds (one hour by default).`,
    param: 'response_id',
  });
}

async function storedOrNotFound(store: StoredResponses, id: string): Promise<StoredResponse> {
  const stored = await store.get(id);
  if (!stored) throw responseNotFound(id);
  return stored;
}

function limitOf(raw: string | undefined): number {
  if (raw === undefined) return 20;
  const limit = Number(raw);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100)
    throw invalidRequest(`Invalid 'limit': ${JSON.stringify(raw)}; expected an integer from 1 to 100.`, 'limit');
  return limit;
}

/** The place of the item a cursor names, or a 404 naming the parameter. */
function cursorIndex(items: readonly Record<string, unknown>[], id: string, param: 'after' | 'before'): number {
  const index = items.findIndex((item) => item.id === id);
  if (index < 0) throw gatewayError('item_not_found', { message: `Item with id '${id}' is not an input item of this response.`, param });
  return index;
}

/**
 * OpenAI's cursor list: newest first by default, `after` the id of the last item already seen (`before`, the
 * first, pages back). Every item has an id (input-item-resource.ts), so `last_id` always names one.
 */
function listPage(stored: StoredResponse, query: ListQuery) {
  const order = query.order ?? 'desc';
  if (order !== 'asc' && order !== 'desc')
    throw invalidRequest(`Invalid 'order': ${JSON.stringify(order)}; expected 'asc' or 'desc'.`, 'order');
  const responseId = stored.response.id as string;
  const items = stored.input.map((item, index) => inputItemResource(item, responseId, index));
  const ordered = order === 'asc' ? items : items.reverse();
  const limit = limitOf(query.limit);
  const end = query.before === undefined ? ordered.length : cursorIndex(ordered, query.before, 'before');
  let start = query.after === undefined ? 0 : cursorIndex(ordered, query.after, 'after') + 1;
  // Paging back from `before`: the `limit` items just before it.
  if (query.before !== undefined && query.after === undefined) start = Math.max(0, end - limit);
  const data = ordered.slice(start, Math.min(end, start + limit));
  const idOf = (item: Record<string, unknown> | undefined) => (item ? (item.id as string) : null);
  return { object: 'list', data, first_id: idOf(data[0]), last_id: idOf(data.at(-1)), has_more: start + data.length < end };
}

export function registerStoredResponseRoutes(app: FastifyInstance, store: StoredResponses): void {
  for (const prefix of ['', '/:provider']) {
    app.get<{ Params: IdParams }>(
      `${prefix}/v1/responses/:id`,
      async (request) => (await storedOrNotFound(store, request.params.id)).response,
    );
    app.delete<{ Params: IdParams }>(`${prefix}/v1/responses/:id`, async (request) => {
      const { id } = request.params;
      if (!(await store.delete(id))) throw responseNotFound(id);
      return { id, object: 'response', deleted: true };
    });
    app.get<{ Params: IdParams; Querystring: ListQuery }>(`${prefix}/v1/responses/:id/input_items`, async (request) =>
      listPage(await storedOrNotFound(store, request.params.id), request.query),
    );
  }
}
