/** MiniMax-M3's invokes: every tag after the `]<]minimax[>[` namespace token, arguments as XML elements named after them. */
// `NS<invoke name="F">` holds one element per argument, `NS<city>Paris NS</city>`; an object's members are
// elements inside its element, an array's items are `NS<item>` elements. The tool's schema decides what a
// value is, as llama.cpp's grammar does: a value the schema lets be a string is the text up to its close,
// as written; otherwise an element that opens with a tag is an object (or, with `item` tags, an array),
// and plain text is read by the schema (numbers, booleans, JSON).
// @see https://github.com/ggml-org/llama.cpp/blob/master/common/parsers/minimax-m3.cpp
// @see https://github.com/vllm-project/vllm/blob/main/vllm/frontend/processing/tool_parsers/minimax_m3_tool_parser.py
import { excerpt, type BodyFraming, type DecodeContext, type DecodedBody } from '../shared/body-grammar.js';
import { isPlainObject } from '../shared/call-arguments.js';
import { invokeBlocksGrammar } from '../shared/invoke-grammar.js';
import { coerceBySchema } from '../shared/coerce-by-schema.js';
import { defineKey, skipSpace } from '../shared/lenient-json.js';

/** The namespace token before every structural tag. */
export const m3Namespace = ']<]minimax[>[';
export const m3SectionOpen = `${m3Namespace}<tool_call>`;
export const m3SectionClose = `${m3Namespace}</tool_call>`;
export const m3InvokeOpen = `${m3Namespace}<invoke name=`;
export const m3InvokeClose = `${m3Namespace}</invoke>`;
export const m3ItemTag = 'item';

const elementOpen = /^([^\s<>/]+)>/;

type Read<T> = { type: 'value'; value: T; end: number } | { type: 'invalid'; message: string };

export const m3InvokeGrammar = invokeBlocksGrammar('minimax-m3-invokes', m3InvokeOpen, m3InvokeClose, readElements);

function readElements(call: string, name: string, start: number, framing: BodyFraming, context: DecodeContext): DecodedBody {
  // Nothing marks the last argument but the invoke's close: a reply cut off before it may have had more.
  if (framing === 'unclosed')
    return { type: 'invalid', message: `The call to "${name}" is cut off before ${m3InvokeClose}`, incomplete: true };
  const members = readMembers(call, start, call.length, context.roster.resolve(name)?.parameters ?? {});
  if (members.type === 'invalid') return { type: 'invalid', message: `In the call to "${name}": ${members.message}` };
  return { type: 'calls', calls: [{ type: 'call', name, arguments: members.value }] };
}

/** The elements from `start` up to `end` as an object's members, each read with its property schema. */
function readMembers(text: string, start: number, end: number, schema: unknown): Read<Record<string, unknown>> {
  const properties = isPlainObject(schema) && isPlainObject(schema['properties']) ? schema['properties'] : {};
  const members: Record<string, unknown> = {};
  let position = start;
  for (;;) {
    position = skipSpace(text, position);
    if (position >= end) return { type: 'value', value: members, end: position };
    const element = readElement(text, position, end, (key) => (Object.hasOwn(properties, key) ? properties[key] : undefined));
    if (element.type === 'invalid') return element;
    defineKey(members, element.value.key, element.value.value);
    position = element.end;
  }
}

/** `NS<item>` elements from `start` up to `end`, each read with the array's item schema. */
function readItems(text: string, start: number, end: number, schema: unknown): Read<unknown[]> {
  const itemSchema = isPlainObject(schema) ? schema['items'] : undefined;
  const items: unknown[] = [];
  let position = start;
  for (;;) {
    position = skipSpace(text, position);
    if (position >= end) return { type: 'value', value: items, end: position };
    const element = readElement(text, position, end, () => itemSchema);
    if (element.type === 'invalid') return element;
    if (element.value.key !== m3ItemTag)
      return { type: 'invalid', message: `An array holds a <${element.value.key}> element, not <${m3ItemTag}>` };
    items.push(element.value.value);
    position = element.end;
  }
}

function readElement(text: string, start: number, end: number, schemaOf: (key: string) => unknown): Read<{ key: string; value: unknown }> {
  const tagStart = start + m3Namespace.length;
  const open = text.startsWith(`${m3Namespace}<`, start) ? elementOpen.exec(text.slice(tagStart + 1, tagStart + 200)) : null;
  if (open === null) return { type: 'invalid', message: `Unexpected text: ${excerpt(text.slice(start, end))}` };
  const key = open[1] ?? '';
  const valueStart = tagStart + 1 + open[0].length;
  const schema = schemaOf(key);
  const close = `${m3Namespace}</${key}>`;
  const value =
    allowsString(schema) || !text.startsWith(`${m3Namespace}<`, skipSpace(text, valueStart))
      ? readText(text, valueStart, end, close, schema)
      : readNested(text, valueStart, end, close, schema);
  return value.type === 'invalid' ? value : { type: 'value', value: { key, value: value.value }, end: value.end };
}

/** A leaf: the text up to the element's close, typed by the schema (a string stays as written). */
function readText(text: string, start: number, end: number, close: string, schema: unknown): Read<unknown> {
  const valueEnd = text.indexOf(close, start);
  if (valueEnd < 0 || valueEnd >= end) return { type: 'invalid', message: `A value is not closed by ${close}` };
  return { type: 'value', value: coerceBySchema(text.slice(start, valueEnd), schema), end: valueEnd + close.length };
}

/** An object's members or an array's items, then the element's close. */
function readNested(text: string, start: number, end: number, close: string, schema: unknown): Read<unknown> {
  const first = skipSpace(text, start);
  const isArray = schemaTypes(schema).includes('array') || text.startsWith(`${m3Namespace}<${m3ItemTag}>`, first);
  return readUntilClose(text, start, end, close, (limit) =>
    isArray ? readItems(text, start, limit, schema) : readMembers(text, start, limit, schema),
  );
}

/**
 * Children are read up to the first `close` that is not inside one of them: each candidate close is
 * tried in order (an object holding an element of its own name closes later).
 */
function readUntilClose(
  text: string,
  start: number,
  end: number,
  close: string,
  readChildren: (limit: number) => Read<unknown>,
): Read<unknown> {
  let search = start;
  let problem: Read<unknown> = { type: 'invalid', message: `An element is not closed by ${close}` };
  for (;;) {
    const limit = text.indexOf(close, search);
    if (limit < 0 || limit >= end) return problem;
    const children = readChildren(limit);
    if (children.type === 'value') return { type: 'value', value: children.value, end: limit + close.length };
    problem = children;
    search = limit + close.length;
  }
}

function schemaTypes(schema: unknown): string[] {
  if (!isPlainObject(schema)) return [];
  const type = schema['type'];
  return typeof type === 'string' ? [type] : Array.isArray(type) ? type.filter((entry): entry is string => typeof entry === 'string') : [];
}

function allowsString(schema: unknown): boolean {
  return schemaTypes(schema).includes('string');
}
