/**
 * JSON Schemas for the Anthropic Messages and count_tokens bodies: strict where a wrong type would
 * become a confusing upstream error, loose elsewhere (unknown fields such as `output_config` or
 * `context_management`, and unknown block types, are accepted: Claude Code adds them often).
 * Field reference: https://docs.anthropic.com/en/api/messages
 * The bodies' TypeScript types are derived from these schemas (FromSchema), so each is the one source
 * of its wire shape.
 */
import type { FromSchema } from 'json-schema-to-ts';
import { modelNameSchema } from '../shared/model-name-schema.js';

/** `if type is X then require Y`: names the missing field instead of failing a whole anyOf. */
function whenType<const Type extends string, const Required extends readonly string[], const Properties extends object>(
  type: Type,
  required: Required,
  properties: Properties,
) {
  return { if: { required: ['type'], properties: { type: { const: type } } }, then: { required, properties } } as const;
}

const cacheControl = { type: ['object', 'null'] } as const;

const source = { type: 'object', required: ['type'], properties: { type: { type: 'string' } } } as const;

const contentBlock = {
  type: 'object',
  required: ['type'],
  properties: { type: { type: 'string' }, cache_control: cacheControl },
  allOf: [
    whenType('text', ['text'], { text: { type: 'string' } }),
    whenType('image', ['source'], { source }),
    whenType('document', ['source'], { source }),
    whenType('tool_use', ['id', 'name', 'input'], {
      id: { type: 'string' },
      name: { type: 'string', minLength: 1 },
      input: { type: 'object' },
    }),
    whenType('tool_result', ['tool_use_id'], {
      tool_use_id: { type: 'string' },
      content: { anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'object', required: ['type'] } }] },
      is_error: { type: 'boolean' },
    }),
    whenType('thinking', ['thinking'], { thinking: { type: 'string' }, signature: { type: 'string' } }),
  ],
} as const;

const message = {
  type: 'object',
  required: ['role', 'content'],
  properties: {
    // `system` inside messages is Claude Code's mid-conversation-system beta.
    role: { enum: ['user', 'assistant', 'system'] },
    content: { anyOf: [{ type: 'string' }, { type: 'array', items: contentBlock }] },
  },
} as const;

const system = {
  anyOf: [
    { type: 'string' },
    {
      type: 'array',
      items: {
        type: 'object',
        required: ['type', 'text'],
        properties: { type: { const: 'text' }, text: { type: 'string' }, cache_control: cacheControl },
      },
    },
  ],
} as const;

/** Custom tools (no `type`, or `custom`) need a schema; typed tools are checked later (parse-anthropic-tools.ts). */
const tool = {
  type: 'object',
  required: ['name'],
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 128 },
    type: { type: ['string', 'null'] },
    description: { type: 'string' },
    input_schema: { type: 'object' },
    // Strict tool use: https://platform.claude.com/docs/en/agents-and-tools/tool-use/strict-tool-use
    strict: { type: 'boolean' },
    cache_control: cacheControl,
  },
  if: { anyOf: [{ not: { required: ['type'] } }, { properties: { type: { enum: ['custom', null] } } }] },
  then: { required: ['input_schema'] },
} as const;

const toolChoice = {
  type: 'object',
  required: ['type'],
  properties: {
    type: { enum: ['auto', 'any', 'tool', 'none'] },
    name: { type: 'string' },
    disable_parallel_tool_use: { type: 'boolean' },
  },
  if: { properties: { type: { const: 'tool' } } },
  then: { required: ['name'] },
} as const;

const thinking = {
  type: 'object',
  required: ['type'],
  properties: { type: { type: 'string' }, budget_tokens: { type: 'integer' } },
} as const;

const commonProperties = {
  model: modelNameSchema,
  // Anthropic answers an empty list with its 400 ("messages: at least one message is required"), count_tokens too.
  messages: { type: 'array', minItems: 1, items: message },
  system,
  tools: { type: 'array', items: tool },
  tool_choice: toolChoice,
  thinking,
} as const;

const outputFormat = {
  type: 'object',
  required: ['type'],
  properties: { type: { const: 'json_schema' }, schema: { type: 'object' } },
} as const;

export const messagesRequestSchema = {
  type: 'object',
  required: ['model', 'messages', 'max_tokens'],
  properties: {
    ...commonProperties,
    max_tokens: { type: 'integer', minimum: 1 },
    stream: { type: ['boolean', 'null'] },
    temperature: { type: 'number' },
    top_p: { type: 'number' },
    top_k: { type: 'integer' },
    stop_sequences: { type: 'array', items: { type: 'string' } },
    metadata: { type: 'object', properties: { user_id: { type: ['string', 'null'] } } },
    // Structured outputs: GA `output_config.format`, and the beta's `output_format` (header structured-outputs-2025-11-13).
    // https://platform.claude.com/docs/en/build-with-claude/structured-outputs
    // `effort` (low, medium, high, xhigh, max: https://platform.claude.com/docs/en/build-with-claude/effort) is
    // checked by Claude itself, which gains levels over time.
    output_config: { type: 'object', properties: { format: outputFormat, effort: { type: 'string', minLength: 1 } } },
    output_format: outputFormat,
  },
} as const;

/** count_tokens takes the same conversation but no generation settings (no `max_tokens`). */
export const countTokensRequestSchema = {
  type: 'object',
  required: ['model', 'messages'],
  properties: commonProperties,
} as const;

export type MessagesBody = FromSchema<typeof messagesRequestSchema>;
/** The conversation part, shared with count_tokens. */
export type ConversationBody = FromSchema<typeof countTokensRequestSchema>;
export type WireMessage = ConversationBody['messages'][number];
export type WireSystem = NonNullable<ConversationBody['system']>;
export type WireTool = NonNullable<ConversationBody['tools']>[number];
export type WireToolChoice = NonNullable<ConversationBody['tool_choice']>;
