/** The Responses body type, derived from its schema, agrees with what the validator accepts. */
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  responsesRequestSchema,
  type ResponsesBody,
  type WireContentPart,
  type WireInputItem,
  type WireTool,
  type WireToolChoice,
} from '../../../routes/responses/responses-request-schema.js';
import { BodyValidators } from '../../../routes/shared/body-validator.js';
import type { RequiredKeys } from '../../helpers/schema-contract.js';

const validators = new BodyValidators();
const validate = validators.for<ResponsesBody>(responsesRequestSchema);

/** Every field the route reads, written to the type alone: the compiler checks it, the validator must accept it. */
const fullBody: ResponsesBody = {
  model: 'local/qwen3',
  instructions: 'Be brief.',
  input: [
    { role: 'user', content: [{ type: 'input_text', text: 'Patch the file.' }] },
    { type: 'function_call', call_id: 'call_1', name: 'read_file', arguments: '{"path":"a.txt"}' },
    { type: 'function_call_output', call_id: 'call_1', output: 'hello' },
    { type: 'custom_tool_call', call_id: 'call_2', name: 'apply_patch', input: '*** Begin Patch' },
    { type: 'custom_tool_call_output', call_id: 'call_2', output: [{ type: 'output_text', text: 'Done.' }] },
  ],
  tools: [
    { type: 'function', name: 'read_file', description: null, parameters: { type: 'object' }, strict: true },
    { type: 'custom', name: 'apply_patch', format: { type: 'grammar' } },
    { type: 'namespace', name: 'files', tools: [{ type: 'function', name: 'list_files' }] },
  ],
  tool_choice: { type: 'allowed_tools', mode: 'auto', tools: [{ type: 'function', name: 'read_file' }] },
  parallel_tool_calls: false,
  max_output_tokens: 512,
  temperature: null,
  top_p: 0.9,
  reasoning: { effort: 'low' },
  text: { format: { type: 'json_schema', name: 'answer', schema: { type: 'object' } } },
  stream: true,
  previous_response_id: null,
  metadata: { run: '1' },
  user: 'user-1',
  safety_identifier: 'hash-1',
};

describe('the Responses body type derived from responsesRequestSchema', () => {
  it('requires exactly what the schema requires, and the validator says so in the same words', () => {
    expectTypeOf<RequiredKeys<ResponsesBody>>().toEqualTypeOf<(typeof responsesRequestSchema.required)[number]>();
    // @ts-expect-error model is required by the type, as by the schema
    const withoutModel: ResponsesBody = { input: 'Hi' };
    expect(() => validate(withoutModel)).toThrow("Missing required parameter: 'model'.");
  });

  it('types the enums and scalars the parser reads', () => {
    expectTypeOf<Extract<WireToolChoice, string>>().toEqualTypeOf<'auto' | 'none' | 'required'>();
    expectTypeOf<NonNullable<NonNullable<ResponsesBody['text']>['format']>['type']>().toEqualTypeOf<
      'text' | 'json_object' | 'json_schema'
    >();
    expectTypeOf<ResponsesBody['max_output_tokens']>().toEqualTypeOf<number | null | undefined>();
    expectTypeOf<ResponsesBody['input']>().toEqualTypeOf<string | WireInputItem[] | undefined>();
    // Items and tools are told apart by `type` at run time; their own fields are checked by if/then only.
    expectTypeOf<WireInputItem['type']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<WireContentPart['type']>().toEqualTypeOf<string>();
    expectTypeOf<WireTool['type']>().toEqualTypeOf<string>();
    const choice: WireToolChoice = 'required';
    expect(responsesRequestSchema.properties.tool_choice.anyOf[0].enum).toContain(choice);
  });

  it('accepts a body written to the type, with every field the route reads', () => {
    expect(validate(fullBody)).toBe(fullBody);
  });

  it('refuses what the type rules out, naming the field', () => {
    // @ts-expect-error max_output_tokens is a number
    const badLimit: ResponsesBody = { ...fullBody, max_output_tokens: 'many' };
    expect(() => validate(badLimit)).toThrow("Invalid value for 'max_output_tokens': must be integer,null.");
  });
});
