/**
 * Strict tools (`tools[].function.strict: true`, as the OpenAI Agents SDK sends every tool; `strict: true` on a
 * Messages tool) to Claude and Bedrock: sent strict with the schema narrowed to the grammar subset where the
 * model takes strict tools and the schema narrows faithfully, otherwise sent as before with a warning. Both
 * fakes answer a strict tool they cannot compile with the 400 the real APIs give, so a wrong request fails here.
 */
import { describe, expect, it } from 'vitest';
import type { FakeAnthropicReply } from '../helpers/fake-anthropic-upstream.js';
import type { FakeBedrockReply } from '../helpers/fake-bedrock-server.js';
import { claudeAndBedrockForFile, postForOk } from '../helpers/claude-and-bedrock.js';

/** What Pydantic writes for a booking tool with `passengers: int = Field(ge=1)`: an open object with a bound. */
const booking = {
  type: 'object',
  properties: { city: { type: 'string' }, passengers: { type: 'integer', minimum: 1 } },
  required: ['city', 'passengers'],
};

const narrowedBooking = {
  type: 'object',
  properties: { city: { type: 'string' }, passengers: { type: 'integer', description: '{minimum: 1}' } },
  required: ['city', 'passengers'],
  additionalProperties: false,
};

const fakes = claudeAndBedrockForFile({ modelsWithoutStructuredOutputs: ['meta.llama3-70b-instruct-v1:0'] });

type Warning = { code: string; message: string };
type Completion = {
  choices: { message: { tool_calls?: { function: { arguments: string } }[] } }[];
  diagnostics?: { warnings?: Warning[] };
};

async function complete(model: string, parameters: Record<string, unknown>, strict: boolean): Promise<Completion> {
  return (await postForOk(`${fakes.gateway.baseUrl}/v1/chat/completions`, {
    model,
    max_tokens: 200,
    messages: [{ role: 'user', content: 'Book Paris for two.' }],
    tools: [{ type: 'function', function: { name: 'book', parameters, strict } }],
  })) as Completion;
}

function lastAnthropicTool(): Record<string, unknown> {
  const body = fakes.anthropic.messageRequests().at(-1)!.body as { tools: Record<string, unknown>[] };
  return body.tools[0]!;
}

function lastBedrockSpec(): Record<string, unknown> {
  const body = fakes.bedrock.requests.at(-1)!.body as { toolConfig: { tools: { toolSpec: Record<string, unknown> }[] } };
  return body.toolConfig.tools[0]!.toolSpec;
}

const toolUse: FakeAnthropicReply = {
  type: 'message',
  content: [{ type: 'tool_use', name: 'book', input: { city: 'Paris', passengers: 2 } }],
};

describe('a strict tool to Claude', () => {
  it('goes strict on a model with strict tool use, its schema narrowed, and the bound that left it is warned', async () => {
    fakes.anthropic.enqueue(toolUse);
    const completion = await complete('claude/claude-sonnet-4-5', booking, true);
    expect(JSON.parse(completion.choices[0]!.message.tool_calls![0]!.function.arguments)).toEqual({ city: 'Paris', passengers: 2 });
    expect(lastAnthropicTool()).toEqual({ name: 'book', input_schema: narrowedBooking, strict: true });
    expect(completion.diagnostics?.warnings).toContainEqual({
      code: 'strict-schema-not-guaranteed',
      message: expect.stringContaining('cannot enforce minimum'),
    });
  });

  it('goes as before, not strict, to a model without strict tool use, and says so', async () => {
    fakes.anthropic.enqueue(toolUse);
    const completion = await complete('claude/claude-sonnet-4-20250514', booking, true);
    expect(lastAnthropicTool()).toEqual({ name: 'book', input_schema: booking });
    expect(completion.diagnostics?.warnings).toContainEqual({
      code: 'strict-schema-not-guaranteed',
      message: expect.stringContaining('claude-sonnet-4-20250514 has no strict tool use'),
    });
  });

  it('goes as before, not strict, when its schema has no faithful narrowing (a free-form object)', async () => {
    fakes.anthropic.enqueue(toolUse);
    const withMetadata = { ...booking, properties: { ...booking.properties, metadata: { type: 'object' } } };
    const completion = await complete('claude/claude-opus-4-7', withMetadata, true);
    expect(lastAnthropicTool()).toEqual({ name: 'book', input_schema: withMetadata });
    expect(completion.diagnostics?.warnings).toContainEqual({
      code: 'strict-schema-not-guaranteed',
      message: expect.stringContaining('free-form object'),
    });
  });

  it('leaves a tool that did not ask for strict as it was, without a word', async () => {
    fakes.anthropic.enqueue(toolUse);
    const completion = await complete('claude/claude-sonnet-4-5', booking, false);
    expect(lastAnthropicTool()).toEqual({ name: 'book', input_schema: booking });
    expect(completion.diagnostics?.warnings ?? []).toEqual([]);
  });

  it('from the Messages API too: a Claude client’s strict tool reaches Claude strict', async () => {
    fakes.anthropic.enqueue(toolUse);
    await postForOk(
      `${fakes.gateway.baseUrl}/v1/messages`,
      {
        model: 'claude/claude-haiku-4-5-20251001',
        max_tokens: 200,
        messages: [{ role: 'user', content: 'Book Paris for two.' }],
        tools: [{ name: 'book', input_schema: { ...booking, additionalProperties: false }, strict: true }],
      },
      { 'anthropic-version': '2023-06-01' },
    );
    expect(lastAnthropicTool()).toEqual({ name: 'book', input_schema: narrowedBooking, strict: true });
  });
});

describe("Claude's limits on one request's strict schemas (20 strict tools, 24 optional and 16 union parameters)", () => {
  /** A tool with `optional` parameters that are not required, and one that is. */
  function toolWith(name: string, optional: number): Record<string, unknown> {
    const properties: Record<string, unknown> = { id: { type: 'string' } };
    for (let index = 0; index < optional; index++) properties[`option_${index}`] = { type: 'string' };
    return { type: 'function', function: { name, strict: true, parameters: { type: 'object', properties, required: ['id'] } } };
  }

  async function completeWith(extra: Record<string, unknown>): Promise<Completion> {
    fakes.anthropic.enqueue({ type: 'message', content: [{ type: 'text', text: '{}' }] });
    return (await postForOk(`${fakes.gateway.baseUrl}/v1/chat/completions`, {
      model: 'claude/claude-sonnet-4-5',
      max_tokens: 200,
      messages: [{ role: 'user', content: 'hi' }],
      ...extra,
    })) as Completion;
  }

  function sentTools(): { name: string; strict?: boolean }[] {
    return (fakes.anthropic.messageRequests().at(-1)!.body as { tools: { name: string; strict?: boolean }[] }).tools;
  }

  it('an agent with 25 strict tools (the OpenAI Agents SDK marks every one): the first 20 go strict, the rest without, each warned', async () => {
    const tools = Array.from({ length: 25 }, (_, index) => toolWith(`tool_${index}`, 0));
    const completion = await completeWith({ tools });
    const sent = sentTools();
    expect(sent.filter((tool) => tool.strict === true).map((tool) => tool.name)).toEqual(
      tools.slice(0, 20).map((_, index) => `tool_${index}`),
    );
    expect(sent.slice(20).every((tool) => tool.strict === undefined)).toBe(true);
    const warned = (completion.diagnostics?.warnings ?? []).filter((warning) => warning.message.includes('21 strict tools (at most 20)'));
    expect(warned).toHaveLength(5);
    expect(warned[0]).toEqual({
      code: 'strict-schema-not-guaranteed',
      message: expect.stringContaining("tool 'tool_20' asked for strict"),
    });
  });

  it('optional parameters count across the tools: the one that would pass 24 goes without strict, a smaller one after it still strict', async () => {
    const completion = await completeWith({ tools: [toolWith('big', 20), toolWith('middle', 10), toolWith('small', 4)] });
    expect(sentTools().map((tool) => [tool.name, tool.strict === true])).toEqual([
      ['big', true],
      ['middle', false],
      ['small', true],
    ]);
    expect(completion.diagnostics?.warnings).toContainEqual({
      code: 'strict-schema-not-guaranteed',
      message: expect.stringContaining(
        "tool 'middle' asked for strict: with it the request's strict schemas would hold 30 optional parameters (at most 24)",
      ),
    });
  });

  it('the response format counts first; one past a limit alone goes into the prompt instead of a 400', async () => {
    const format = (optional: number) => ({
      type: 'json_schema',
      json_schema: { name: 'answer', strict: true, schema: (toolWith('answer', optional).function as { parameters: unknown }).parameters },
    });
    await completeWith({ response_format: format(20), tools: [toolWith('lookup', 10)] });
    expect(sentTools()[0]!.strict).toBeUndefined();
    const alone = await completeWith({ response_format: format(30) });
    expect((fakes.anthropic.messageRequests().at(-1)!.body as { output_config?: unknown }).output_config).toBeUndefined();
    expect(alone.diagnostics?.warnings).toContainEqual({
      code: 'strict-schema-not-guaranteed',
      message: expect.stringContaining('30 optional parameters (at most 24)'),
    });
  });

  it('parameters with union types count too (a nullable field is one)', async () => {
    const nullable = (name: string, count: number) => {
      const properties: Record<string, unknown> = {};
      for (let index = 0; index < count; index++) properties[`field_${index}`] = { type: ['string', 'null'] };
      return {
        type: 'function',
        function: { name, strict: true, parameters: { type: 'object', properties, required: Object.keys(properties) } },
      };
    };
    await completeWith({ tools: [nullable('first', 10), nullable('second', 10)] });
    expect(sentTools().map((tool) => tool.strict === true)).toEqual([true, false]);
  });
});

describe('a strict tool to Bedrock', () => {
  const bedrockToolUse: FakeBedrockReply = { type: 'message', toolUses: [{ name: 'book', input: { city: 'Paris', passengers: 2 } }] };

  it('goes with toolSpec.strict to Claude 4.5, its schema narrowed', async () => {
    fakes.bedrock.enqueue(bedrockToolUse);
    const completion = await complete('bedrock/us.anthropic.claude-sonnet-4-5-20250929-v1:0', booking, true);
    expect(JSON.parse(completion.choices[0]!.message.tool_calls![0]!.function.arguments)).toEqual({ city: 'Paris', passengers: 2 });
    expect(lastBedrockSpec()).toEqual({ name: 'book', inputSchema: { json: narrowedBooking }, strict: true });
  });

  it('goes without strict to Claude Opus 4.7, whose Converse route refuses the field, and says so', async () => {
    fakes.bedrock.enqueue(bedrockToolUse);
    const completion = await complete('bedrock/us.anthropic.claude-opus-4-7', booking, true);
    expect(lastBedrockSpec()).toEqual({ name: 'book', inputSchema: { json: booking } });
    expect(completion.diagnostics?.warnings).toContainEqual({
      code: 'strict-schema-not-guaranteed',
      message: expect.stringContaining('Claude 4.5 and 4.6 only'),
    });
  });

  it('goes without strict to a model the gateway does not know to take it', async () => {
    fakes.bedrock.enqueue(bedrockToolUse);
    const completion = await complete('bedrock/meta.llama3-70b-instruct-v1:0', booking, true);
    expect(lastBedrockSpec().strict).toBeUndefined();
    expect(completion.diagnostics?.warnings?.map((warning) => warning.code)).toContain('strict-schema-not-guaranteed');
  });
});

describe('the fake Anthropic upstream, as Claude', () => {
  async function send(model: string, tool: Record<string, unknown>): Promise<{ status: number; message: string }> {
    const response = await fetch(`${fakes.anthropic.url}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model, max_tokens: 10, messages: [{ role: 'user', content: 'hi' }], tools: [tool] }),
    });
    const body = (await response.json()) as { error: { message: string } };
    return { status: response.status, message: body.error.message };
  }

  it('refuses a request whose strict schemas pass a limit together, as Claude does', async () => {
    const tools = Array.from({ length: 21 }, (_, index) => ({ name: `tool_${index}`, input_schema: narrowedBooking, strict: true }));
    const response = await fetch(`${fakes.anthropic.url}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'claude-sonnet-4-5', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }], tools }),
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { message: string } }).error.message).toContain('Too many strict tools (21)');
    // Not strict, the same tools are no grammar to compile.
    const relaxed = tools.map(({ name, input_schema }) => ({ name, input_schema }));
    fakes.anthropic.enqueue({ type: 'message', content: [{ type: 'text', text: 'ok' }] });
    const accepted = await fetch(`${fakes.anthropic.url}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'claude-sonnet-4-5', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }], tools: relaxed }),
    });
    expect(accepted.status).toBe(200);
  });

  it('refuses strict on a model without it, and a strict schema outside the grammar subset', async () => {
    expect(await send('claude-sonnet-4-20250514', { name: 'book', input_schema: narrowedBooking, strict: true })).toEqual({
      status: 400,
      message: "'claude-sonnet-4-20250514' does not support strict tools.",
    });
    expect(await send('claude-sonnet-4-5', { name: 'book', input_schema: booking, strict: true })).toEqual({
      status: 400,
      message: "tools.0.custom: For 'object' type, 'additionalProperties' must be explicitly set to false",
    });
  });
});
