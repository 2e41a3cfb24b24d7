/**
 * Whether an upstream's grammar compiler gave up on the response format's schema, rather than on a tool's.
 * Claude's and Bedrock's words name the response format where the request has one (src/core/grammar-too-complex.ts);
 * llama-server's do not. Its json-schema-to-grammar converts every schema a request carries into a grammar, the
 * tools' parameters (common/chat.cpp, the tool-call grammar) as well as the format's, and refuses any of them in
 * the same words: "JSON schema conversion failed:" then one reason a line (common/json-schema-to-grammar.cpp,
 * `check_errors`), some naming the part of the schema it could not read ("Unrecognized schema: <the part, as
 * nlohmann dumps it>", "Error resolving ref <ref>: …"). Taken for the format's when a tool's was at fault, the
 * format would be moved into the prompt and that schema remembered for nothing, and the same request refused
 * again. So the format is blamed only:
 * - when the refusal names the `json_schema` field, which is the format's alone: `"json_schema": JSON schema
 *   conversion failed: …` (tools/server/server-task.cpp, `params_from_json_cmpl`), thrown as a
 *   std::runtime_error and so answered with a 500 by the server's exception handler;
 * - when it comes from the automatic parser generator ("Unable to generate parser for this template. Automatic
 *   parser generation failed: …", common/chat.cpp, `common_chat_templates_apply_jinja`) and the format has a
 *   schema: beside one, the generator builds the format's grammar alone and no tool-call parser
 *   (chat-auto-parser-generator.cpp, `autoparser::build_parser`), so no tool's schema was read;
 * - when no tool with a schema went with it;
 * - when every reason names a part found in the format's schema and in no tool's.
 * Anything else (a reason without a part, such as "Unbalanced parentheses" in a pattern) stays the client's
 * error, as the upstream gave it.
 */
import type { ChatRequest } from '../core/chat-request.js';
import { GatewayError } from '../core/gateway-error.js';
import { isGrammarTooComplex } from '../core/grammar-too-complex.js';

const conversionFailed = /\bJSON schema conversion failed:/;
const formatFieldRefused = /"json_schema": JSON schema conversion failed:/;
const parserGeneratorRefused = /Automatic parser generation failed: JSON schema conversion failed:/;
const unrecognizedPart = /^Unrecognized schema: (.+)$/;
const unresolvedRef = /^Error resolving ref (\S+?):/;

/** `value` with its objects' keys sorted: the same text for the same JSON, whatever order its keys came in. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    return `{${Object.keys(record)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical(record[key])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** Every value inside `schema` (itself included), canonical, and every `$ref` it holds. */
function partsOf(schema: unknown, parts: Set<string>): Set<string> {
  parts.add(canonical(schema));
  if (Array.isArray(schema)) for (const item of schema) partsOf(item, parts);
  else if (schema && typeof schema === 'object') {
    for (const [key, value] of Object.entries(schema)) {
      if (key === '$ref' && typeof value === 'string') parts.add(`$ref ${value}`);
      partsOf(value, parts);
    }
  }
  return parts;
}

/** The part of the schema a reason names, in partsOf's terms; undefined for a reason that names none. */
function namedPart(reason: string): string | undefined {
  const unrecognized = unrecognizedPart.exec(reason)?.[1];
  if (unrecognized !== undefined) {
    try {
      return canonical(JSON.parse(unrecognized));
    } catch {
      return undefined;
    }
  }
  const ref = unresolvedRef.exec(reason)?.[1];
  return ref === undefined ? undefined : `$ref ${ref}`;
}

function blamesFormat(message: string, request: ChatRequest, formatSchema: Record<string, unknown>): boolean {
  if (formatFieldRefused.test(message)) return true;
  // An empty schema is no format to llama.cpp (`has_response_format` wants a non-empty object).
  if (parserGeneratorRefused.test(message) && Object.keys(formatSchema).length > 0) return true;
  const toolSchemas = (request.tools ?? []).map((tool) => tool.parameters).filter((schema) => Object.keys(schema ?? {}).length > 0);
  if (toolSchemas.length === 0) return true;
  const reasons = message
    .slice(message.search(conversionFailed))
    .split('\n')
    .slice(1)
    .filter((line) => line.trim() !== '');
  const named = reasons.map(namedPart);
  if (named.length === 0 || named.some((part) => part === undefined)) return false;
  const inFormat = partsOf(formatSchema, new Set());
  const inTools = new Set<string>();
  for (const schema of toolSchemas) partsOf(schema, inTools);
  return named.every((part) => inFormat.has(part as string) && !inTools.has(part as string));
}

/** The response format's schema refused by the upstream's grammar compiler, `request` being what was sent. */
export function isFormatSchemaTooComplex(error: unknown, request: ChatRequest): boolean {
  const format = request.responseFormat;
  if (format?.type !== 'json_schema' || !format.schema || !GatewayError.isInstance(error)) return false;
  if (!conversionFailed.test(error.message)) return isGrammarTooComplex(error);
  const status = error.upstreamStatus;
  const refusal = (status !== undefined && status >= 400 && status < 500) || (status === 500 && formatFieldRefused.test(error.message));
  return refusal && blamesFormat(error.message, request, format.schema);
}
