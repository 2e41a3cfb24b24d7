/**
 * Why an upstream cannot be given a response format in its own field, or undefined when it can: the kind
 * has no constrained decoding (the scripted model), no `json_object` form (Claude and Bedrock take schemas
 * only, so neither a json_schema format without one), or compiles schemas into a grammar that cannot hold this one faithfully (src/core/grammar-schema-subset.ts)
 * or that refuses one this large (Claude's limits, src/core/strict-schema-limits.ts), or takes no cycle through
 * required properties or a `$ref` beside a union (Gemini's responseJsonSchema, src/core/gemini-schema-cycles.ts and
 * gemini-ref-siblings.ts).
 * The pipeline then writes the format into the prompt, and the reason into the strict warning.
 */
import type { ResponseFormat } from '../core/chat-request.js';
import { geminiRefSiblingsGap } from '../core/gemini-ref-siblings.js';
import { geminiSchemaCycleGap } from '../core/gemini-schema-cycles.js';
import { grammarSubsetGap, narrowToGrammarSubset } from '../core/grammar-schema-subset.js';
import { StrictSchemaBudget } from '../core/strict-schema-limits.js';
import {
  compilesSchemasToGrammar,
  isVertexClaudeModel,
  providerTypesWithoutResponseFormat,
  takesJsonObjectNatively,
  type ProviderType,
} from '../core/provider-types.js';

export function nativeFormatGap(format: Exclude<ResponseFormat, { type: 'text' }>, type: ProviderType, model: string): string | undefined {
  if (providerTypesWithoutResponseFormat.includes(type)) return `the ${type} provider has no constrained decoding`;
  if (format.type === 'json_object')
    return takesJsonObjectNatively(type, model)
      ? undefined
      : `the ${type} provider constrains replies to a schema only, and json_object has none`;
  // Gemini (its own API, or on Vertex AI) takes recursion only through optional properties (gemini-schema-cycles.ts),
  // and nothing but `$` keywords beside a `$ref`, which it cannot be given by moving the `$ref` beside a union.
  const gemini = type === 'gemini' || (type === 'vertex' && !isVertexClaudeModel(model));
  const geminiGap = gemini && format.schema ? (geminiSchemaCycleGap(format.schema) ?? geminiRefSiblingsGap(format.schema)) : undefined;
  if (geminiGap) return `the ${type} provider's responseJsonSchema cannot hold this schema: ${geminiGap}`;
  if (!compilesSchemasToGrammar(type, model)) return undefined;
  // OpenAI's `json_schema.schema` is optional; a grammar needs one, so without it nothing native can ask for JSON.
  if (!format.schema) return `the ${type} provider constrains replies to a schema only, and this json_schema format gives none`;
  const gap = grammarSubsetGap(format.schema);
  if (gap) return `the ${type} provider's structured outputs cannot compile this schema: ${gap}`;
  // Claude's per-request limits (src/core/strict-schema-limits.ts), counted on the schema as it would be sent;
  // Bedrock documents none of its own.
  if (type === 'bedrock') return undefined;
  const over = new StrictSchemaBudget().admit(narrowToGrammarSubset(format.schema).schema, 'format');
  return over && `the ${type} provider's structured outputs refuse schemas this large: ${over}`;
}
