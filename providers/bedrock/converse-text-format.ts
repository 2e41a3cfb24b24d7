/** A response format as Converse's structured output. */
import type { OutputFormat } from '@aws-sdk/client-bedrock-runtime';
import type { ChatRequest } from '../../src/core/chat-request.js';
import { grammarFormatSchema } from '../../src/core/grammar-schema-subset.js';
import type { Warning } from '../../src/core/warning.js';

/**
 * A `json_schema` response format as Converse's structured output
 * (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_OutputFormat.html): the schema travels
 * as a JSON string, beside its name and description, narrowed to the subset Bedrock compiles (it answers 400
 * for the rest; src/core/grammar-schema-subset.ts). Converse has no `json_object` form; the pipeline writes
 * that into the prompt. A model without structured outputs refuses the field with a 400, and the pipeline
 * serves it with the schema in the prompt from then on (src/pipeline/response-format-refused.ts).
 */
export function converseTextFormat(request: ChatRequest, warnings: Warning[]): OutputFormat | undefined {
  const format = request.responseFormat;
  if (format?.type !== 'json_schema' || !format.schema) return undefined;
  const narrowed = grammarFormatSchema({ ...format, schema: format.schema }, `Bedrock provider '${request.model.provider}'`);
  warnings.push(...narrowed.warnings);
  const jsonSchema = {
    schema: JSON.stringify(narrowed.schema),
    name: format.name,
    ...(format.description ? { description: format.description } : {}),
  };
  return { type: 'json_schema', structure: { jsonSchema } };
}
