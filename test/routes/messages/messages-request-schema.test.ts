/** The Messages and count_tokens body types, derived from their schemas, agree with what the validator accepts. */
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  countTokensRequestSchema,
  messagesRequestSchema,
  type ConversationBody,
  type MessagesBody,
  type WireMessage,
  type WireSystem,
  type WireTool,
  type WireToolChoice,
} from '../../../routes/messages/messages-request-schema.js';
import { BodyValidators } from '../../../routes/shared/body-validator.js';
import type { RequiredKeys } from '../../helpers/schema-contract.js';

const validators = new BodyValidators();
const validateMessages = validators.for<MessagesBody>(messagesRequestSchema);
const validateCountTokens = validators.for<ConversationBody>(countTokensRequestSchema);

/** Every field the route reads, written to the type alone: the compiler checks it, the validator must accept it. */
const fullBody: MessagesBody = {
  model: 'local/qwen3',
  max_tokens: 256,
  system: [{ type: 'text', text: 'Be brief.' }],
  messages: [
    { role: 'user', content: 'Weather in Oslo?' },
    {
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'Use the tool.', signature: 'sig' },
        { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Oslo' } },
      ],
    },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'Sunny', is_error: false }] },
  ],
  tools: [{ name: 'get_weather', description: 'Weather by city.', input_schema: { type: 'object' } }],
  tool_choice: { type: 'tool', name: 'get_weather', disable_parallel_tool_use: true },
  thinking: { type: 'enabled', budget_tokens: 2048 },
  stream: null,
  temperature: 0.2,
  top_p: 0.9,
  top_k: 40,
  stop_sequences: ['END'],
  metadata: { user_id: 'user-1' },
};

describe('the Messages body type derived from messagesRequestSchema', () => {
  it('requires exactly what the schema requires, and the validator says so in the same words', () => {
    expectTypeOf<RequiredKeys<MessagesBody>>().toEqualTypeOf<(typeof messagesRequestSchema.required)[number]>();
    expectTypeOf<RequiredKeys<ConversationBody>>().toEqualTypeOf<(typeof countTokensRequestSchema.required)[number]>();
    // @ts-expect-error max_tokens is required by the type, as by the schema
    const withoutMaxTokens: MessagesBody = { model: 'local/qwen3', messages: [{ role: 'user', content: 'hi' }] };
    expect(() => validateMessages(withoutMaxTokens)).toThrow("Missing required parameter: 'max_tokens'.");
    expect(validateCountTokens(withoutMaxTokens)).toBe(withoutMaxTokens);
  });

  it('refuses an empty message list, as Anthropic does, for messages and count_tokens alike', () => {
    const empty = { model: 'local/qwen3', max_tokens: 16, messages: [] };
    expect(() => validateMessages(empty)).toThrow(/messages/);
    expect(() => validateCountTokens(empty)).toThrow(/messages/);
  });

  it('types the enums and scalars the parsers switch on', () => {
    expectTypeOf<WireMessage['role']>().toEqualTypeOf<'user' | 'assistant' | 'system'>();
    expectTypeOf<WireToolChoice['type']>().toEqualTypeOf<'auto' | 'any' | 'tool' | 'none'>();
    expectTypeOf<MessagesBody['max_tokens']>().toEqualTypeOf<number>();
    expectTypeOf<MessagesBody['stream']>().toEqualTypeOf<boolean | null | undefined>();
    expectTypeOf<WireTool['name']>().toEqualTypeOf<string>();
    expectTypeOf<WireTool['type']>().toEqualTypeOf<string | null | undefined>();
    expectTypeOf<Exclude<WireSystem, string>[number]['type']>().toEqualTypeOf<'text'>();
    // Blocks are told apart by `type` at run time; their own fields are checked by the schema's if/then only.
    expectTypeOf<Exclude<WireMessage['content'], string>[number]['type']>().toEqualTypeOf<string>();
    const role: WireMessage['role'] = 'system';
    expect(messagesRequestSchema.properties.messages.items.properties.role.enum).toContain(role);
  });

  it('accepts a body written to the type, with every field the route reads', () => {
    expect(validateMessages(fullBody)).toBe(fullBody);
  });

  it('refuses what the type rules out, naming the field', () => {
    // @ts-expect-error 'maybe' is not a tool_choice type
    const badChoice: MessagesBody = { ...fullBody, tool_choice: { type: 'maybe' } };
    expect(() => validateMessages(badChoice)).toThrow(
      'Invalid value for \'tool_choice.type\': must be one of "auto", "any", "tool", "none".',
    );
  });
});
