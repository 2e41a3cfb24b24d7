/**
 * JSON Schema for the Chat Completions request body: loose on purpose (unknown top-level fields
 * are ignored, as real clients send extras such as Codex's client_metadata), strict where a wrong
 * type would otherwise turn into a confusing upstream error. The body's TypeScript type is derived
 * from it (FromSchema), so the schema is the one source of the wire shape.
 */
import type { FromSchema } from 'json-schema-to-ts';
import { modelNameSchema } from '../shared/model-name-schema.js';

const nullableNumber = { type: ['number', 'null'] } as const;
const nullableInteger = { type: ['integer', 'null'] } as const;

const textPart = {
  type: 'object',
  required: ['type'],
  properties: { type: { type: 'string' } },
} as const;

const toolCall = {
  type: 'object',
  required: ['function'],
  properties: {
    id: { type: 'string' },
    type: { type: 'string' },
    function: {
      type: 'object',
      required: ['name'],
      properties: {
        name: { type: 'string', minLength: 1 },
        arguments: { type: ['string', 'object'] },
      },
    },
  },
} as const;

const message = {
  type: 'object',
  required: ['role'],
  properties: {
    role: { enum: ['system', 'developer', 'user', 'assistant', 'tool'] },
    content: { anyOf: [{ type: 'string' }, { type: 'null' }, { type: 'array', items: textPart }] },
    tool_calls: { type: ['array', 'null'], items: toolCall },
    tool_call_id: { type: 'string' },
    reasoning_content: { type: ['string', 'null'] },
    reasoning: { type: ['string', 'null'] },
    refusal: { type: ['string', 'null'] },
    name: { type: 'string' },
  },
  // `required` keeps the condition false for a message without a role, which must be reported as such.
  if: { required: ['role'], properties: { role: { const: 'tool' } } },
  then: { required: ['tool_call_id'] },
} as const;

const functionDefinition = {
  type: 'object',
  required: ['name'],
  properties: {
    name: { type: 'string', pattern: '^[A-Za-z0-9_.:-]{1,128}$' },
    description: { type: 'string' },
    parameters: { type: 'object' },
    strict: { type: ['boolean', 'null'] },
  },
} as const;

const tool = {
  type: 'object',
  allOf: [
    // First (allOf runs in order), so a tool of another type (`custom`, a hosted tool) is named as such,
    // rather than as a function definition missing its `function`.
    { properties: { type: { const: 'function' } } },
    {
      anyOf: [
        { required: ['function'], properties: { type: { const: 'function' }, function: functionDefinition } },
        // The flat shape {name, description, parameters} some clients send.
        functionDefinition,
      ],
    },
  ],
} as const;

export const chatCompletionRequestSchema = {
  type: 'object',
  required: ['model', 'messages'],
  properties: {
    model: modelNameSchema,
    messages: { type: 'array', minItems: 1, items: message },
    tools: { type: ['array', 'null'], items: tool },
    tool_choice: {
      anyOf: [
        { enum: ['auto', 'none', 'required'] },
        { type: 'null' },
        {
          type: 'object',
          required: ['type'],
          properties: {
            type: { const: 'function' },
            function: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } },
          },
        },
        {
          type: 'object',
          required: ['type', 'allowed_tools'],
          properties: {
            type: { const: 'allowed_tools' },
            allowed_tools: {
              type: 'object',
              required: ['mode', 'tools'],
              properties: { mode: { enum: ['auto', 'required'] }, tools: { type: 'array', items: { type: 'object' } } },
            },
          },
        },
      ],
    },
    parallel_tool_calls: { type: ['boolean', 'null'] },
    stream: { type: ['boolean', 'null'] },
    stream_options: { type: ['object', 'null'], properties: { include_usage: { type: ['boolean', 'null'] } } },
    temperature: nullableNumber,
    top_p: nullableNumber,
    max_tokens: nullableInteger,
    max_completion_tokens: nullableInteger,
    n: nullableInteger,
    seed: nullableInteger,
    presence_penalty: nullableNumber,
    frequency_penalty: nullableNumber,
    stop: { anyOf: [{ type: 'string' }, { type: 'null' }, { type: 'array', items: { type: 'string' } }] },
    response_format: {
      type: ['object', 'null'],
      required: ['type'],
      properties: { type: { enum: ['text', 'json_object', 'json_schema'] } },
    },
    reasoning_effort: { type: ['string', 'null'] },
    logprobs: { type: ['boolean', 'null'] },
    // No maximum: OpenAI's is 20, but vLLM's is its --max-logprobs and llama-server has none; the upstream says.
    top_logprobs: { type: ['integer', 'null'], minimum: 0 },
    user: { type: ['string', 'null'] },
    agent_format: { type: ['string', 'null'] },
    tool_call_tags: { type: ['string', 'null'] },
  },
} as const;

export type ChatCompletionBody = FromSchema<typeof chatCompletionRequestSchema>;
export type WireMessage = ChatCompletionBody['messages'][number];
export type WireTool = NonNullable<ChatCompletionBody['tools']>[number];
export type WireFunction = FromSchema<typeof functionDefinition>;
export type WireToolChoice = ChatCompletionBody['tool_choice'];
