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

/** JSON mode without a schema (llama-server's empty `json_schema`, which builds no format grammar). */
export const isAnyObject = (constraint: Constraint): boolean => constraint === anyObject;

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

/**
 * How llama.cpp quotes a schema in its errors: `dump()` of an `nlohmann::ordered_json` (the `json` of
 * common/json-schema-to-grammar.cpp), compact, the keys in the order the request wrote them.
 */
const jsonDump = (value: unknown): string => JSON.stringify(value);

/** `_visit_pattern`'s test: the pattern's first character is `^` and its last `$`. */
const anchored = (pattern: string) => pattern.startsWith('^') && pattern.endsWith('$');

/** The keys of `PRIMITIVE_RULES`: a `type` naming one of them is read (even the grammar's own rule names). */
const llamaPrimitives = new Set([
  'boolean',
  'decimal-part',
  'integral-part',
  'number',
  'integer',
  'value',
  'object',
  'array',
  'uuid',
  'char',
  'string',
  'null',
]);

/**
 * `resolve_refs`, run over the whole schema before any of it is visited: every local `$ref` ("#/…") is followed
 * through the root schema one `/`-separated token at a time, the tokens taken as written (no JSON Pointer
 * unescaping: `~1`, `~0` and `%20` are looked up literally), and a token that is not there is "Error resolving
 * ref REF: TOKEN not in TARGET"; a ref that is neither local nor `https://` is "Unsupported ref: REF". An object
 * with a `$ref` is not looked into further. Remote refs (fetched by the server) and the hoisting of nested
 * `$defs` (`hoist_defs_to_root`) are not modelled.
 */
function resolveRefs(node: unknown, root: Schema, refs: Map<string, unknown>, found: string[]): void {
  if (Array.isArray(node)) for (const item of node) resolveRefs(item, root, refs, found);
  if (!isObject(node)) return;
  if (typeof node.$ref !== 'string') {
    for (const value of Object.values(node)) resolveRefs(value, root, refs, found);
    return;
  }
  const ref = node.$ref;
  if (refs.has(ref) || ref.startsWith('https://')) return;
  if (!ref.startsWith('#/')) {
    found.push(`Unsupported ref: ${ref}`);
    return;
  }
  let target: unknown = root;
  for (const token of ref.slice(1).split('/').slice(1)) {
    const next = Array.isArray(target) ? target[Number(token)] : isObject(target) && token in target ? target[token] : undefined;
    if (next === undefined) {
      found.push(`Error resolving ref ${ref}: ${token} not in ${jsonDump(target)}`);
      return;
    }
    target = next;
  }
  refs.set(ref, target);
}

const typeIs = (schema: Schema, ...types: (string | undefined)[]) => types.includes(schema.type as string | undefined);

/**
 * The schemas llama.cpp's converter cannot turn into a grammar, walked in the order of `common_schema_converter::visit`
 * (common/json-schema-to-grammar.cpp): `$ref`, `oneOf`/`anyOf`, a list of types (one branch each), `const`, `enum`,
 * an object's `properties` / `additionalProperties`, `allOf`, an array's `items` / `prefixItems`, a string's
 * `pattern`, then the primitive `type`. Refused: a `type` that names no primitive rule ("Unrecognized schema: …",
 * the schema as dumped), and a `pattern` not anchored at both ends, which `_visit_pattern` refuses before reading it
 * ("Pattern must start with '^' and end with '$'", as OpenClaw's cron tool's `"pattern": "\\S"` meets it). A schema
 * with no `type` and none of those keywords (`{"description": "…"}`, what schemars and pydantic write for "any
 * value") is read as any JSON value since ggml-org/llama.cpp#20021 (March 2026; builds before it refused it as
 * "Unrecognized schema", ggml-org/llama.cpp#19716).
 */
function visit(schema: unknown, refs: Map<string, unknown>, found: string[], resolving: Set<string>): void {
  if (!isObject(schema)) return;
  const visitAll = (schemas: unknown) => {
    if (Array.isArray(schemas)) for (const one of schemas) visit(one, refs, found, resolving);
  };
  if (typeof schema.$ref === 'string') {
    // `_resolve_ref`: a ref being resolved is not visited again (recursive schemas).
    const ref = schema.$ref;
    if (resolving.has(ref)) return;
    resolving.add(ref);
    visit(refs.get(ref), refs, found, resolving);
    resolving.delete(ref);
    return;
  }
  if (schema.oneOf !== undefined || schema.anyOf !== undefined) return visitAll(schema.oneOf ?? schema.anyOf);
  if (Array.isArray(schema.type)) return visitAll(schema.type.map((type: unknown) => ({ ...schema, type })));
  if (schema.const !== undefined || schema.enum !== undefined) return;
  const additional = schema.additionalProperties;
  if (typeIs(schema, undefined, 'object') && (schema.properties !== undefined || (additional !== undefined && additional !== true))) {
    if (isObject(schema.properties)) visitAll(Object.values(schema.properties));
    return visit(additional, refs, found, resolving);
  }
  if (typeIs(schema, undefined, 'object', 'string') && Array.isArray(schema.allOf)) {
    for (const part of schema.allOf as unknown[]) {
      const parts: unknown[] = isObject(part) && Array.isArray(part.anyOf) ? part.anyOf : [part];
      for (const component of parts)
        if (isObject(component) && isObject(component.properties)) visitAll(Object.values(component.properties));
    }
    return;
  }
  if (typeIs(schema, undefined, 'array') && (schema.items !== undefined || schema.prefixItems !== undefined)) {
    const items = schema.items ?? schema.prefixItems;
    return Array.isArray(items) ? visitAll(items) : visit(items, refs, found, resolving);
  }
  if (typeIs(schema, undefined, 'string') && typeof schema.pattern === 'string') {
    if (!anchored(schema.pattern)) found.push("Pattern must start with '^' and end with '$'");
    return;
  }
  if (schema.type === undefined) return;
  if (typeof schema.type !== 'string' || !llamaPrimitives.has(schema.type)) found.push(`Unrecognized schema: ${jsonDump(schema)}`);
}

/**
 * llama-server's 400 for a schema its converter gave up on, as users quote it (ggml-org/llama.cpp#19716):
 * `{"error":{"code":400,"message":"JSON schema conversion failed:\nUnrecognized schema: {…}","type":"invalid_request_error"}}`.
 */
export function llamaSchemaConversionError(constraint: Constraint): string | undefined {
  const found: string[] = [];
  const refs = new Map<string, unknown>();
  resolveRefs(constraint.schema, constraint.schema, refs, found);
  visit(constraint.schema, refs, found, new Set());
  return found.length === 0 ? undefined : `JSON schema conversion failed:\n${found.join('\n')}`;
}
