/**
 * A stored input item as GET /v1/responses/{id}/input_items lists it: in the shape OpenAI's ItemResource
 * gives it (a message's content as parts, `input_text` for what the user, system or developer said and
 * `output_text` for an assistant's words; a call or output `completed`) and always with an id. Clients page
 * by the ids (`after`, the SDK's auto-pagination reads `last_id`), so an item sent without one is given an
 * id made from the response's and its place in the list: the same on every read of the stored response,
 * with nothing more to store.
 */
import type { WireInputItem } from './responses-request-schema.js';

/** OpenAI's id prefix for each item type (msg_…, fc_…); other types fall back to `item`. */
const idPrefixes: Readonly<Record<string, string>> = {
  message: 'msg',
  function_call: 'fc',
  function_call_output: 'fco',
  custom_tool_call: 'ctc',
  custom_tool_call_output: 'ctco',
  reasoning: 'rs',
};

function messageContent(role: unknown, content: unknown): unknown {
  if (typeof content !== 'string') return content;
  return role === 'assistant' ? [{ type: 'output_text', text: content, annotations: [] }] : [{ type: 'input_text', text: content }];
}

export function inputItemResource(item: WireInputItem, responseId: string, index: number): Record<string, unknown> {
  const type = item.type ?? 'message';
  const id = typeof item.id === 'string' ? item.id : `${idPrefixes[type] ?? 'item'}_${responseId.replace(/^resp_/, '')}_${index}`;
  const resource: Record<string, unknown> = { ...item, id, type };
  if (type === 'message') resource.content = messageContent(item.role, item.content);
  if (type !== 'reasoning' && resource.status === undefined) resource.status = 'completed';
  return resource;
}
