/** Kimi-K2 call ids, `functions.NAME:IDX`: the model's own id for a call, with the name inside it. */
// IDX counts the calls of the conversation from 0. The model pairs results with calls by this id, so
// history keeps a model-given one and numbers the others in order.

const kimiIdShape = /^functions\.[^\s:]+:\d+$/;
const indexSuffix = /:\d+$/;

export function isKimiCallId(id: string): boolean {
  return kimiIdShape.test(id);
}

/** A call's Kimi id: its own when it has that form, else `functions.NAME:ordinal`. */
export function kimiCallId(call: { id?: string; name: string }, ordinal: number): string {
  return call.id !== undefined && isKimiCallId(call.id) ? call.id : `functions.${call.name}:${ordinal}`;
}

/** The name in a call header as written (`functions.get_weather:0` → `functions.get_weather`; the roster drops `functions.`). */
export function nameInCallHeader(header: string): string {
  return header.replace(indexSuffix, '');
}

/** Whether a call header carries an index, which makes it the call's id. */
export function isIndexedCallHeader(header: string): boolean {
  return indexSuffix.test(header);
}
