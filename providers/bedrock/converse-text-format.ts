/** A response format as Converse's structured output. */
import type { OutputFormat } from '@aws-sdk/client-bedrock-runtime';
import type { ChatRequest } from '../../src/core/chat-request.js';

/**
 * A `json_schema` response format as Converse's structured output
 * (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_OutputFormat.html): the schema travels
 * as a JSON string, beside its name and description. Converse has no `json_object` form; the pipeline writes
 * that into the prompt. A model without structured outputs refuses the field with a 400, and the pipeline
 * serves it with the schema in the prompt from then on (src/pipeline/response-format-refused.ts).
 */
export function converseTextFormat(format: ChatRequest['responseFormat']): OutputFormat | undefined {
  if (format?.type !== 'json_schema' || !format.schema) return undefined;
  const jsonSchema = {
    schema: JSON.stringify(format.schema),
    name: format.name,
    ...(format.description ? { description: format.description } : {}),
  };
  return { type: 'json_schema', structure: { jsonSchema } };
}
