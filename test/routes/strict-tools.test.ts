/**
 * Strict tools (`tools[].function.strict: true`, as the OpenAI Agents SDK sends every tool; `strict: true` on a
 * Messages tool) to Claude and Bedrock: sent strict with the schema narrowed to the grammar subset where the
 * model takes strict tools and the schema narrows faithfully, otherwise sent as before with a warning. Both
 * fakes answer a strict tool they cannot compile with the 400 the real APIs give, so a wrong request fails here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeAnthropicUpstream, type FakeAnthropicReply, type FakeAnthropicUpstream } from '../helpers/fake-anthropic-upstream.js';
import { startFakeBedrock, type FakeBedrock, type FakeBedrockReply } from '../helpers/fake-bedrock-server.js';
import { startGateway, testProvider, type StartedGateway } from '../helpers/start-gateway.js';

const credentials = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY' };

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

let anthropic: FakeAnthropicUpstream;
let bedrock: FakeBedrock;
let gateway: StartedGateway;

beforeAll(async () => {
  anthropic = await startFakeAnthropicUpstream();
  bedrock = await startFakeBedrock({
    region: 'us-east-1',
    ...credentials,
    modelsWithoutStructuredOutputs: ['meta.llama3-70b-instruct-v1:0'],
  });
  gateway = await startGateway({
    providers: {
      claude: testProvider('anthropic', anthropic.url, { apiKey: 'sk-ant-test' }),
      bedrock: testProvider('bedrock', bedrock.url, { region: 'us-east-1', ...credentials }),
    },
  });
});

afterAll(async () => {
  await gateway.close();
  await anthropic.close();
  await bedrock.close();
});

type Warning = { code: string; message: string };
type Completion = {
  choices: { message: { tool_calls?: { function: { arguments: string } }[] } }[];
  diagnostics?: { warnings?: Warning[] };
};

async function complete(model: string, parameters: Record<string, unknown>, strict: boolean): Promise<Completion> {
  const response = await fetch(`${gateway.baseUrl}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      model,
      max_tokens: 200,
      messages: [{ role: 'user', content: 'Book Paris for two.' }],
      tools: [{ type: 'function', function: { name: 'book', parameters, strict } }],
    }),
  });
  const text = await response.text();
  expect(response.status, text).toBe(200);
  return JSON.parse(text) as Completion;
}

function lastAnthropicTool(): Record<string, unknown> {
  const body = anthropic.messageRequests().at(-1)!.body as { tools: Record<string, unknown>[] };
  return body.tools[0]!;
}

function lastBedrockSpec(): Record<string, unknown> {
  const body = bedrock.requests.at(-1)!.body as { toolConfig: { tools: { toolSpec: Record<string, unknown> }[] } };
  return body.toolConfig.tools[0]!.toolSpec;
}

const toolUse: FakeAnthropicReply = {
  type: 'message',
  content: [{ type: 'tool_use', name: 'book', input: { city: 'Paris', passengers: 2 } }],
};

describe('a strict tool to Claude', () => {
  it('goes strict on a model with strict tool use, its schema narrowed, and the bound that left it is warned', async () => {
    anthropic.enqueue(toolUse);
    const completion = await complete('claude/claude-sonnet-4-5', booking, true);
    expect(JSON.parse(completion.choices[0]!.message.tool_calls![0]!.function.arguments)).toEqual({ city: 'Paris', passengers: 2 });
    expect(lastAnthropicTool()).toEqual({ name: 'book', input_schema: narrowedBooking, strict: true });
    expect(completion.diagnostics?.warnings).toContainEqual({
      code: 'strict-schema-not-guaranteed',
      message: expect.stringContaining('cannot enforce minimum'),
    });
  });

  it('goes as before, not strict, to a model without strict tool use, and says so', async () => {
    anthropic.enqueue(toolUse);
    const completion = await complete('claude/claude-sonnet-4-20250514', booking, true);
    expect(lastAnthropicTool()).toEqual({ name: 'book', input_schema: booking });
    expect(completion.diagnostics?.warnings).toContainEqual({
      code: 'strict-schema-not-guaranteed',
      message: expect.stringContaining('claude-sonnet-4-20250514 has no strict tool use'),
    });
  });

  it('goes as before, not strict, when its schema has no faithful narrowing (a free-form object)', async () => {
    anthropic.enqueue(toolUse);
    const withMetadata = { ...booking, properties: { ...booking.properties, metadata: { type: 'object' } } };
    const completion = await complete('claude/claude-opus-4-7', withMetadata, true);
    expect(lastAnthropicTool()).toEqual({ name: 'book', input_schema: withMetadata });
    expect(completion.diagnostics?.warnings).toContainEqual({
      code: 'strict-schema-not-guaranteed',
      message: expect.stringContaining('free-form object'),
    });
  });

  it('leaves a tool that did not ask for strict as it was, without a word', async () => {
    anthropic.enqueue(toolUse);
    const completion = await complete('claude/claude-sonnet-4-5', booking, false);
    expect(lastAnthropicTool()).toEqual({ name: 'book', input_schema: booking });
    expect(completion.diagnostics?.warnings ?? []).toEqual([]);
  });

  it('from the Messages API too: a Claude client’s strict tool reaches Claude strict', async () => {
    anthropic.enqueue(toolUse);
    const response = await fetch(`${gateway.baseUrl}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({
        model: 'claude/claude-haiku-4-5-20251001',
        max_tokens: 200,
        messages: [{ role: 'user', content: 'Book Paris for two.' }],
        tools: [{ name: 'book', input_schema: { ...booking, additionalProperties: false }, strict: true }],
      }),
    });
    expect(response.status, await response.clone().text()).toBe(200);
    expect(lastAnthropicTool()).toEqual({ name: 'book', input_schema: narrowedBooking, strict: true });
  });
});

describe('a strict tool to Bedrock', () => {
  const bedrockToolUse: FakeBedrockReply = { type: 'message', toolUses: [{ name: 'book', input: { city: 'Paris', passengers: 2 } }] };

  it('goes with toolSpec.strict to Claude 4.5, its schema narrowed', async () => {
    bedrock.enqueue(bedrockToolUse);
    const completion = await complete('bedrock/us.anthropic.claude-sonnet-4-5-20250929-v1:0', booking, true);
    expect(JSON.parse(completion.choices[0]!.message.tool_calls![0]!.function.arguments)).toEqual({ city: 'Paris', passengers: 2 });
    expect(lastBedrockSpec()).toEqual({ name: 'book', inputSchema: { json: narrowedBooking }, strict: true });
  });

  it('goes without strict to Claude Opus 4.7, whose Converse route refuses the field, and says so', async () => {
    bedrock.enqueue(bedrockToolUse);
    const completion = await complete('bedrock/us.anthropic.claude-opus-4-7', booking, true);
    expect(lastBedrockSpec()).toEqual({ name: 'book', inputSchema: { json: booking } });
    expect(completion.diagnostics?.warnings).toContainEqual({
      code: 'strict-schema-not-guaranteed',
      message: expect.stringContaining('Claude 4.5 and 4.6 only'),
    });
  });

  it('goes without strict to a model the gateway does not know to take it', async () => {
    bedrock.enqueue(bedrockToolUse);
    const completion = await complete('bedrock/meta.llama3-70b-instruct-v1:0', booking, true);
    expect(lastBedrockSpec().strict).toBeUndefined();
    expect(completion.diagnostics?.warnings?.map((warning) => warning.code)).toContain('strict-schema-not-guaranteed');
  });
});

describe('the fake Anthropic upstream, as Claude', () => {
  async function send(model: string, tool: Record<string, unknown>): Promise<{ status: number; message: string }> {
    const response = await fetch(`${anthropic.url}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model, max_tokens: 10, messages: [{ role: 'user', content: 'hi' }], tools: [tool] }),
    });
    const body = (await response.json()) as { error: { message: string } };
    return { status: response.status, message: body.error.message };
  }

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
