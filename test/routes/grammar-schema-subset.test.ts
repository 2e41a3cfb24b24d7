/**
 * Response formats whose schemas Claude's and Bedrock's grammar compilers refuse as written (bounds, open
 * objects: both fakes answer the 400 the real APIs do, grammar-schema-refusal.ts) reach them narrowed, the
 * reply is still held to the client's whole schema, and a schema with no faithful narrowing goes into the prompt.
 */
import { describe, expect, it } from 'vitest';
import { claudeAndBedrockForFile, postForOk } from '../helpers/claude-and-bedrock.js';

/** What Pydantic writes for `class Person(BaseModel): name: str = Field(min_length=1); age: int = Field(ge=0)`. */
const person = {
  title: 'Person',
  type: 'object',
  properties: {
    name: { title: 'Name', type: 'string', minLength: 1 },
    age: { title: 'Age', type: 'integer', minimum: 0 },
  },
  required: ['name', 'age'],
};

const fakes = claudeAndBedrockForFile();

type Completion = {
  choices: { message: { content: string } }[];
  diagnostics?: { warnings?: { code: string; message: string }[]; response_format_error?: { code: string } };
};

async function complete(model: string, schema: Record<string, unknown>, strict = true): Promise<Completion> {
  return (await postForOk(`${fakes.gateway.baseUrl}/v1/chat/completions`, {
    model,
    max_tokens: 200,
    messages: [{ role: 'user', content: 'Describe Ada as JSON.' }],
    response_format: { type: 'json_schema', json_schema: { name: 'person', schema, strict } },
  })) as Completion;
}

function lastAnthropicBody(): Record<string, unknown> {
  return fakes.anthropic.messageRequests().at(-1)!.body as Record<string, unknown>;
}

describe('a schema outside the grammar subset, to Claude', () => {
  it('goes narrowed: the bounds in descriptions, every object closed; a strict format is warned', async () => {
    fakes.anthropic.enqueue({ type: 'message', content: [{ type: 'text', text: '{"name": "Ada", "age": 36}' }] });
    const completion = await complete('claude/claude-sonnet-4-5', person);
    expect(JSON.parse(completion.choices[0]!.message.content)).toEqual({ name: 'Ada', age: 36 });
    expect(lastAnthropicBody().output_config).toEqual({
      format: {
        type: 'json_schema',
        schema: {
          title: 'Person',
          type: 'object',
          properties: {
            name: { title: 'Name', type: 'string', description: '{minLength: 1}' },
            age: { title: 'Age', type: 'integer', description: '{minimum: 0}' },
          },
          required: ['name', 'age'],
          additionalProperties: false,
        },
      },
    });
    const warnings = completion.diagnostics?.warnings ?? [];
    expect(warnings).toContainEqual({
      code: 'strict-schema-not-guaranteed',
      message: expect.stringContaining('cannot enforce minLength, minimum'),
    });
  });

  it('holds the reply to the bounds the grammar could not: a broken one is reported', async () => {
    fakes.anthropic.enqueue({ type: 'message', content: [{ type: 'text', text: '{"name": "", "age": -1}' }] });
    const completion = await complete('claude/claude-sonnet-4-5', person, false);
    expect(completion.diagnostics?.response_format_error?.code).toBe('schema_mismatch');
    expect(completion.diagnostics?.warnings ?? []).toEqual([]);
  });

  it('with a free-form object in it, goes into the prompt instead, since a closed one could only be {}', async () => {
    fakes.anthropic.enqueue({ type: 'message', content: [{ type: 'text', text: '{"name": "Ada", "age": 36, "extra": {"born": 1815}}' }] });
    const withExtra = { ...person, properties: { ...person.properties, extra: { type: 'object' } } };
    const completion = await complete('claude/claude-sonnet-4-5', withExtra);
    expect(JSON.parse(completion.choices[0]!.message.content)).toMatchObject({ extra: { born: 1815 } });
    const sent = lastAnthropicBody();
    expect(sent.output_config).toBeUndefined();
    expect(JSON.stringify(sent.system)).toContain('minLength');
    const warnings = completion.diagnostics?.warnings ?? [];
    expect(warnings).toContainEqual({ code: 'strict-schema-not-guaranteed', message: expect.stringContaining('free-form object') });
  });

  it('from the Messages API too (output_config.format, as Claude clients send it)', async () => {
    fakes.anthropic.enqueue({ type: 'message', content: [{ type: 'text', text: '{"name": "Ada", "age": 36}' }] });
    const message = (await postForOk(
      `${fakes.gateway.baseUrl}/v1/messages`,
      {
        model: 'claude/claude-sonnet-4-5',
        max_tokens: 200,
        messages: [{ role: 'user', content: 'Describe Ada as JSON.' }],
        output_config: { format: { type: 'json_schema', schema: person } },
      },
      { 'anthropic-version': '2023-06-01' },
    )) as { content: { type: string; text?: string }[] };
    expect(JSON.parse(message.content.find((block) => block.type === 'text')!.text!)).toEqual({ name: 'Ada', age: 36 });
    expect(
      (lastAnthropicBody().output_config as { format: { schema: { additionalProperties: unknown } } }).format.schema.additionalProperties,
    ).toBe(false);
  });
});

describe('a schema outside the grammar subset, to Bedrock', () => {
  it('goes narrowed in outputConfig.textFormat, and the reply comes back', async () => {
    fakes.bedrock.enqueue({ type: 'message', text: '{"name": "Ada", "age": 36}' });
    const completion = await complete('bedrock/anthropic.claude-sonnet-4-5-20250929-v1:0', person);
    expect(JSON.parse(completion.choices[0]!.message.content)).toEqual({ name: 'Ada', age: 36 });
    const sent = fakes.bedrock.requests.at(-1)!.body as { outputConfig: { textFormat: { structure: { jsonSchema: { schema: string } } } } };
    expect(JSON.parse(sent.outputConfig.textFormat.structure.jsonSchema.schema)).toMatchObject({
      additionalProperties: false,
      properties: { age: { type: 'integer', description: '{minimum: 0}' } },
    });
  });
});
