/**
 * What the fake inference servers do with a request for structured output: each reads the fields its real
 * server reads, and answers with a schema-valid JSON value (test/helpers/schema-instance.ts stands in for the
 * grammar the real server compiles from the schema). A grammar covers the whole reply, so a constrained model
 * writes no call markup, and no thinking either.
 * - vLLM (vllm/entrypoints/openai/chat_completion/protocol.py, `to_sampling_params`): `response_format`
 *   `json_schema` (its `json_schema.schema`) and `json_object`, `structured_outputs: {json | json_object}`,
 *   and before v0.12 the deprecated `guided_json` / `guided_json_object`
 *   (https://docs.vllm.ai/en/latest/features/structured_outputs.html).
 * - llama-server (tools/server/server-common.cpp, `oaicompat_chat_params_parse`): `json_schema` in the body,
 *   `response_format` `json_object` (its optional `schema`, else any object) or `json_schema` (its
 *   `json_schema.schema`); a schema its converter does not know is a 400 (common/json-schema-to-grammar.cpp).
 * - Ollama (docs/api.md, `format`: `"json"` or a JSON schema; openai/openai.go maps `response_format`
 *   `json_object` to `"json"` and `json_schema` to its schema).
 * - SGLang (python/sglang/srt/entrypoints/openai/protocol.py, `ChatCompletionRequest.to_sampling_params`; before,
 *   serving_chat.py `_build_sampling_params`): `response_format` `json_schema` (its `json_schema.schema`) and
 *   `json_object` (`{"type": "object"}`), as the sampling parameters' `json_schema`, compiled by its grammar
 *   backend (xgrammar by default); a tool-call constraint (tool_choice "required" or named) yields to it
 *   ("Constrained decoding is not compatible with tool calls.").
 */
import { schemaInstance } from './schema-instance.js';

type Schema = Record<string, unknown>;

/** A grammar over the reply: one schema, or any JSON object (JSON mode). */
export type Constraint = { schema: Schema };

const anyObject: Constraint = { schema: { type: 'object' } };

function isObject(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function responseFormatOf(body: Record<string, unknown>): { type?: unknown; json_schema?: unknown; schema?: unknown } | undefined {
  return isObject(body.response_format) ? body.response_format : undefined;
}

/** `response_format: {type: "json_schema", json_schema: {schema}}`'s schema, as OpenAI nests it. */
function openAiSchema(format: { json_schema?: unknown }): Schema | undefined {
  return isObject(format.json_schema) && isObject(format.json_schema.schema) ? format.json_schema.schema : undefined;
}

/** vLLM: `structured_outputs` first, then `response_format`, then the pre-0.12 `guided_*` fields. */
export function vllmConstraint(body: Record<string, unknown>): Constraint | undefined {
  const structured = isObject(body.structured_outputs) ? body.structured_outputs : undefined;
  if (structured && isObject(structured.json)) return { schema: structured.json };
  if (structured && typeof structured.json === 'string') return { schema: JSON.parse(structured.json) as Schema };
  if (structured?.json_object === true) return anyObject;
  const format = responseFormatOf(body);
  if (format?.type === 'json_schema') return { schema: openAiSchema(format) ?? {} };
  if (format?.type === 'json_object') return anyObject;
  if (isObject(body.guided_json)) return { schema: body.guided_json };
  if (body.guided_json_object === true) return anyObject;
  return undefined;
}

/**
 * llama-server's chat endpoint: `json_schema` in the body, overridden by `response_format` (a `json_object`
 * without a schema keeps a body `json_schema`); an empty schema means any object. `grammar` (GBNF) is not
 * modelled here: a request with one is answered as if unconstrained.
 */
export function llamaServerConstraint(body: Record<string, unknown>): Constraint | undefined {
  let schema = isObject(body.json_schema) ? body.json_schema : undefined;
  const format = responseFormatOf(body);
  if (format?.type === 'json_object' && (isObject(format.schema) || schema === undefined))
    schema = isObject(format.schema) ? format.schema : {};
  if (format?.type === 'json_schema') schema = openAiSchema(format) ?? {};
  if (schema === undefined) return undefined;
  return Object.keys(schema).length === 0 ? anyObject : { schema };
}

/** SGLang: `response_format` only (`json_schema`, `json_object`); `structural_tag` is not modelled. */
export function sglangConstraint(body: Record<string, unknown>): Constraint | undefined {
  const format = responseFormatOf(body);
  if (format?.type === 'json_schema') return { schema: openAiSchema(format) ?? {} };
  if (format?.type === 'json_object') return anyObject;
  return undefined;
}

/** Ollama's native `format`: `"json"` or a schema object. */
export function ollamaFormatConstraint(format: unknown): Constraint | undefined {
  if (format === 'json') return anyObject;
  return isObject(format) ? { schema: format } : undefined;
}

/**
 * The reply text under a constraint, in short pieces for streaming. Pretty-printed with two spaces, as the
 * grammars allow whitespace and models write it.
 */
export function constrainedPieces(constraint: Constraint): string[] {
  const text = JSON.stringify(schemaInstance(constraint.schema), null, 2);
  const pieces: string[] = [];
  for (let index = 0; index < text.length; index += 4) pieces.push(text.slice(index, index + 4));
  return pieces;
}

/** nlohmann::json's `dump()`: keys sorted, no spaces (how llama.cpp quotes a schema in its errors). */
function nlohmannDump(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(nlohmannDump).join(',')}]`;
  if (isObject(value))
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${nlohmannDump(value[key])}`)
      .join(',')}}`;
  return JSON.stringify(value);
}

/** `_visit_pattern`'s test: the pattern's first character is `^` and its last `$`. */
const anchored = (pattern: string) => pattern.startsWith('^') && pattern.endsWith('$');

const llamaPrimitives = new Set(['boolean', 'number', 'integer', 'string', 'null', 'object', 'array']);

/**
 * The schemas llama.cpp's converter (`SchemaConverter::visit`, common/json-schema-to-grammar.cpp) cannot turn
 * into a grammar: one with none of `$ref`, `anyOf`/`oneOf`, `allOf`, `const`, `enum`, `properties`, `items`
 * and neither empty nor a known `type` ("Unrecognized schema: …", the schema as nlohmann dumps it); and a
 * string's `pattern` that is not anchored at both ends, which `_visit_pattern` refuses before reading it
 * ("Pattern must start with '^' and end with '$'", as OpenClaw's cron tool's `"pattern": "\\S"` meets it).
 */
function unrecognized(schema: unknown, found: string[]): void {
  if (!isObject(schema)) return;
  const structural = ['$ref', 'anyOf', 'oneOf', 'allOf', 'const', 'enum', 'properties', 'items', 'prefixItems', 'additionalProperties'];
  for (const key of ['anyOf', 'oneOf', 'allOf', 'prefixItems'])
    if (Array.isArray(schema[key])) for (const branch of schema[key] as unknown[]) unrecognized(branch, found);
  for (const key of ['properties', '$defs', 'definitions'])
    if (isObject(schema[key])) for (const property of Object.values(schema[key])) unrecognized(property, found);
  for (const key of ['items', 'additionalProperties']) unrecognized(schema[key], found);
  if (structural.some((key) => schema[key] !== undefined)) return;
  const type = schema.type;
  if ((type === undefined || type === 'string') && typeof schema.pattern === 'string' && !anchored(schema.pattern)) {
    found.push("Pattern must start with '^' and end with '$'");
    return;
  }
  const types = Array.isArray(type) ? type : [type];
  const known =
    type === undefined ? Object.keys(schema).length === 0 : types.every((one) => typeof one === 'string' && llamaPrimitives.has(one));
  if (!known) found.push(`Unrecognized schema: ${nlohmannDump(schema)}`);
}

/**
 * llama-server's 400 for a schema its converter gave up on, as users quote it (ggml-org/llama.cpp#19716):
 * `{"error":{"code":400,"message":"JSON schema conversion failed:\nUnrecognized schema: {…}","type":"invalid_request_error"}}`.
 */
export function llamaSchemaConversionError(constraint: Constraint): string | undefined {
  const found: string[] = [];
  unrecognized(constraint.schema, found);
  return found.length === 0 ? undefined : `JSON schema conversion failed:\n${found.join('\n')}`;
}
