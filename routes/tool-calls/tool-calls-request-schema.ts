/**
 * JSON Schemas of the inspector's request bodies; tools, tool_choice and messages are Chat Completions' own.
 * The bodies' types are derived from them (FromSchema).
 */
import type { FromSchema } from 'json-schema-to-ts';
import { chatCompletionRequestSchema } from '../chat-completions/chat-completion-request-schema.js';
import { modelNameSchema } from '../shared/model-name-schema.js';

const { tools, tool_choice: toolChoice, messages, parallel_tool_calls: parallelToolCalls } = chatCompletionRequestSchema.properties;

const target = {
  model: modelNameSchema,
  family: { type: 'string', minLength: 1 },
} as const;

/** A fixed chunk size, or sizes taken in turn (`[1, 5, 2]`), in characters. */
const chunking = {
  anyOf: [
    { type: 'integer', minimum: 1 },
    { type: 'array', minItems: 1, maxItems: 1000, items: { type: 'integer', minimum: 1 } },
  ],
} as const;

export const parseRequestSchema = {
  type: 'object',
  required: ['text'],
  additionalProperties: false,
  properties: { ...target, text: { type: 'string' }, tools, chunking, parallel_tool_calls: parallelToolCalls },
} as const;

export const renderRequestSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    ...target,
    tools,
    tool_choice: toolChoice,
    messages: { ...messages, minItems: 0 },
    calls: {
      type: 'array',
      items: {
        type: 'object',
        required: ['name'],
        additionalProperties: false,
        properties: { name: { type: 'string', minLength: 1 }, arguments: { type: ['string', 'object'] } },
      },
    },
  },
} as const;

export type ParseBody = FromSchema<typeof parseRequestSchema>;
export type RenderBody = FromSchema<typeof renderRequestSchema>;
