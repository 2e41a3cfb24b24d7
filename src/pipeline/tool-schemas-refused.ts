/**
 * Tools whose schemas the upstream's grammar compiler refused: llama-server converts each tool's parameters
 * into the grammar of its tool-call parser (common/chat.cpp) with json-schema-to-grammar, and answers a 400
 * when the converter cannot read one, in its words: "JSON schema conversion failed:" then one reason a line
 * (common/json-schema-to-grammar.cpp, `check_errors`), such as "Pattern must start with '^' and end with '$'"
 * for an unanchored `pattern` (`_visit_pattern`) or "Unrecognized schema: {…}". Builds with the automatic
 * parser generator put "Unable to generate parser for this template. Automatic parser generation failed: "
 * before them (`common_chat_templates_apply_jinja`). Every one of those schemas is valid JSON Schema that the
 * model can still be shown in its prompt, so the prompted lane serves the request instead, and the model and
 * tool set are remembered so that the next request with them skips the refused attempt. Another tool set for
 * the same model is still tried natively: the limit is the schemas', not the model's.
 */
import type { ChatRequest } from '../core/chat-request.js';
import { contentDigest } from '../core/content-digest.js';
import { GatewayError } from '../core/gateway-error.js';
import { modelsRemembered, type RefusalMemories, type RefusalMemory } from '../core/refusal-memory.js';
import type { ResolvedModel } from '../core/resolved-model.js';
import type { ToolDefinition } from '../core/tool-definition.js';
import { isFormatSchemaTooComplex } from './format-schema-refused.js';

const conversionFailed = /\bJSON schema conversion failed:/;

/**
 * A 4xx in the converter's words for a request that sent tools to be parsed (with `tool_choice: "none"`
 * llama-server builds no tool-call grammar), which format-schema-refused.ts does not lay on the response
 * format's schema (the `"json_schema":` field's own refusal among them).
 */
export function isToolSchemaRefusal(error: unknown, sent: ChatRequest): boolean {
  if (!sent.tools?.length || sent.toolChoice?.type === 'none') return false;
  if (!GatewayError.isInstance(error) || error.upstreamStatus === undefined) return false;
  if (error.upstreamStatus < 400 || error.upstreamStatus >= 500 || !conversionFailed.test(error.message)) return false;
  return !isFormatSchemaTooComplex(error, sent);
}

/** What a refusal is remembered by: the tools' schemas and the response format's, which the converter read together. */
export type RefusedSchemas = Pick<ChatRequest, 'tools' | 'responseFormat'>;

/**
 * The model and tool set pairs whose schemas the upstream refused, bounded like the other refusal memories. A
 * response format's schema that went with the tools is part of the key: a reason that names no part of a schema
 * may have been the format's (builds with the parser generator build no tool grammar beside a format at all,
 * chat-auto-parser-generator.cpp), and the same tools without it deserve their native attempt.
 */
export class ToolSchemasRefused {
  private readonly refused: RefusalMemory;

  constructor(memories: RefusalMemories) {
    this.refused = memories(modelsRemembered);
  }

  /** No digest while nothing is remembered: every request with tools asks, and the memory is nearly always empty. */
  has(model: ResolvedModel, request: RefusedSchemas): boolean {
    return this.refused.size > 0 && this.refused.has(keyOf(model, request));
  }

  /** False when the pair was remembered already. */
  remember(model: ResolvedModel, request: RefusedSchemas): boolean {
    return this.refused.remember(keyOf(model, request));
  }
}

/** The schemas alone are what the converter reads; a digest, since a thousand tool sets would otherwise all be held. */
function keyOf(model: ResolvedModel, request: RefusedSchemas): string {
  const format = request.responseFormat?.type === 'json_schema' ? (request.responseFormat.schema ?? null) : null;
  const schemas = (request.tools ?? []).map((tool: ToolDefinition) => tool.parameters);
  return `${model.provider}/${model.model}\n${contentDigest({ tools: schemas, format })}`;
}
