/**
 * JSON Schema for the Responses request body: loose on purpose (unknown fields such as Codex's
 * client_metadata, include, store or prompt_cache_key are ignored, never rejected), strict where a
 * wrong type would otherwise become a confusing upstream error. Item shapes follow `InputItem` in
 * OpenAI's OpenAPI document. The body's TypeScript type is derived from it (FromSchema), so the
 * schema is the one source of the wire shape; fields checked only inside if/then stay untyped.
 */
import type { FromSchema } from 'json-schema-to-ts';
import { modelNameSchema } from '../shared/model-name-schema.js';

const nullableNumber = { type: ['number', 'null'] } as const;
const nullableString = { type: ['string', 'null'] } as const;

const contentPart = {
  type: 'object',
  required: ['type'],
  properties: { type: { type: 'string' } },
  allOf: [
    {
      if: { properties: { type: { enum: ['input_text', 'output_text'] } } },
      then: { required: ['text'], properties: { text: { type: 'string' } } },
    },
    { if: { properties: { type: { const: 'refusal' } } }, then: { required: ['refusal'], properties: { refusal: { type: 'string' } } } },
  ],
} as const;

const messageContent = { anyOf: [{ type: 'string' }, { type: 'array', items: contentPart }] } as const;
const toolOutput = { anyOf: [{ type: 'string' }, { type: 'array', items: contentPart }] } as const;

/** `if type is X then …`: ajv reports the missing field with the item's path, e.g. `input[3].call_id`. */
function whenType<const Type extends string, const Then extends object>(type: Type, then: Then) {
  return { if: { required: ['type'], properties: { type: { const: type } } }, then } as const;
}

const inputItem = {
  type: 'object',
  properties: { type: { type: 'string' } },
  allOf: [
    // An item without `type` is an easy message: `{role, content}`.
    {
      if: { anyOf: [{ not: { required: ['type'] } }, { properties: { type: { const: 'message' } } }] },
      then: {
        required: ['role', 'content'],
        properties: { role: { enum: ['user', 'assistant', 'system', 'developer'] }, content: messageContent },
      },
    },
    whenType('function_call', {
      required: ['call_id', 'name', 'arguments'],
      properties: { call_id: { type: 'string', minLength: 1 }, name: { type: 'string', minLength: 1 }, arguments: { type: 'string' } },
    }),
    whenType('function_call_output', {
      required: ['call_id', 'output'],
      properties: { call_id: { type: 'string', minLength: 1 }, output: toolOutput },
    }),
    whenType('custom_tool_call', {
      required: ['call_id', 'name', 'input'],
      properties: { call_id: { type: 'string', minLength: 1 }, name: { type: 'string', minLength: 1 }, input: { type: 'string' } },
    }),
    whenType('custom_tool_call_output', {
      required: ['call_id', 'output'],
      properties: { call_id: { type: 'string', minLength: 1 }, output: toolOutput },
    }),
  ],
} as const;

const functionTool = {
  required: ['name'],
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 128 },
    description: nullableString,
    parameters: { type: ['object', 'null'] },
    strict: { type: ['boolean', 'null'] },
  },
} as const;

const customTool = {
  required: ['name'],
  properties: { name: { type: 'string', minLength: 1, maxLength: 128 }, description: nullableString, format: { type: ['object', 'null'] } },
} as const;

const namespacedTool = {
  type: 'object',
  required: ['type'],
  properties: { type: { enum: ['function', 'custom'] } },
  allOf: [whenType('function', functionTool), whenType('custom', customTool)],
} as const;

const tool = {
  type: 'object',
  required: ['type'],
  properties: { type: { type: 'string' } },
  allOf: [
    whenType('function', functionTool),
    whenType('custom', customTool),
    whenType('namespace', {
      required: ['name', 'tools'],
      properties: { name: { type: 'string' }, tools: { type: 'array', items: namespacedTool } },
    }),
  ],
} as const;

const toolChoice = {
  anyOf: [
    { enum: ['auto', 'none', 'required'] },
    { type: 'null' },
    { type: 'object', required: ['type'], properties: { type: { type: 'string' }, name: { type: 'string' } } },
  ],
} as const;

export const responsesRequestSchema = {
  type: 'object',
  required: ['model'],
  properties: {
    model: modelNameSchema,
    input: { anyOf: [{ type: 'string' }, { type: 'array', items: inputItem }] },
    instructions: nullableString,
    tools: { type: ['array', 'null'], items: tool },
    tool_choice: toolChoice,
    parallel_tool_calls: { type: ['boolean', 'null'] },
    max_output_tokens: { type: ['integer', 'null'], minimum: 1 },
    temperature: nullableNumber,
    top_p: nullableNumber,
    reasoning: { type: ['object', 'null'], properties: { effort: nullableString } },
    text: {
      type: ['object', 'null'],
      properties: {
        format: { type: ['object', 'null'], required: ['type'], properties: { type: { enum: ['text', 'json_object', 'json_schema'] } } },
      },
    },
    stream: { type: ['boolean', 'null'] },
    previous_response_id: nullableString,
    metadata: { type: ['object', 'null'] },
    user: nullableString,
    safety_identifier: nullableString,
    top_logprobs: { type: ['integer', 'null'], minimum: 0 },
  },
} as const;

export type ResponsesBody = FromSchema<typeof responsesRequestSchema>;
/** A content part of an input message (`input_text`, `input_image`, `input_file`, `output_text`, `refusal`). */
export type WireContentPart = FromSchema<typeof contentPart>;
/** One item of `input` (or of a stored conversation): only `type` is typed, the rest is checked through if/then. */
export type WireInputItem = FromSchema<typeof inputItem>;
export type WireTool = NonNullable<ResponsesBody['tools']>[number];
export type WireToolChoice = ResponsesBody['tool_choice'];
