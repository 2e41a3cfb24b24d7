/**
 * Why an upstream cannot be given a response format in its own field, or undefined when it can: the kind
 * has no constrained decoding (the scripted model), no `json_object` form (Claude and Bedrock take schemas
 * only), or compiles schemas into a grammar that cannot hold this one faithfully (src/core/grammar-schema-subset.ts).
 * The pipeline then writes the format into the prompt, and the reason into the strict warning.
 */
import type { ResponseFormat } from '../core/chat-request.js';
import { grammarSubsetGap } from '../core/grammar-schema-subset.js';
import {
  compilesSchemasToGrammar,
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
  if (!format.schema || !compilesSchemasToGrammar(type, model)) return undefined;
  const gap = grammarSubsetGap(format.schema);
  return gap && `the ${type} provider's structured outputs cannot compile this schema: ${gap}`;
}
