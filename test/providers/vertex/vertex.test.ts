/** The vertex kind against a fake Vertex AI: Gemini through generateContent, Claude through rawPredict, bearer tokens, all three APIs. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { normalizeConfig } from '../../../src/config/normalize-config.js';
import { compileConfigFileValidator } from '../../../src/config/validate-config-file.js';
import { cancellationFromSignal } from '../../../src/core/cancellation.js';
import type { ResolvedModel } from '../../../src/core/resolved-model.js';
import type { StreamEvent } from '../../../src/core/stream-event.js';
import { createVertexAdapter } from '../../../providers/vertex/index.js';
import { startFakeVertex, type FakeVertex } from '../../helpers/fake-vertex-server.js';
import { startGateway, testProvider, type StartedGateway } from '../../helpers/start-gateway.js';

const weatherTool = {
  type: 'function' as const,
  function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
};

let vertex: FakeVertex;
let gateway: StartedGateway;

beforeAll(async () => {
  vertex = await startFakeVertex({ project: 'my-project', location: 'us-east5', bearerTokens: () => ['ya29.fake-token'] });
  gateway = await startGateway({
    providers: {
      vertex: testProvider('vertex', vertex.url, { project: 'my-project', location: 'us-east5', accessToken: 'ya29.fake-token' }),
      'vertex-wrong': testProvider('vertex', vertex.url, {
        project: 'other-project',
        location: 'us-east5',
        accessToken: 'ya29.fake-token',
      }),
    },
  });
});

afterAll(async () => {
  await gateway.close();
  await vertex.close();
});

describe('vertex', () => {
  it('Gemini: generateContent on the project and location, with the bearer token; tool calls come back', async () => {
    vertex.gemini.enqueue({ type: 'generate', chunks: [[{ functionCall: { name: 'get_weather', args: { city: 'Paris' } } }]] });
    const completion = await gateway.client().chat.completions.create({
      model: 'vertex/gemini-2.5-pro',
      messages: [{ role: 'user', content: 'Weather in Paris?' }],
      tools: [weatherTool],
    });
    expect(completion.choices[0]?.message.tool_calls?.[0]).toMatchObject({
      function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
    });
    const sent = vertex.requests.at(-1)!;
    expect(sent.path).toBe('/v1/projects/my-project/locations/us-east5/publishers/google/models/gemini-2.5-pro:generateContent');
    expect(sent.headers.authorization).toBe('Bearer ya29.fake-token');
    expect(sent.headers['x-goog-api-key']).toBeUndefined();
  });

  it('Gemini streamed: streamGenerateContent?alt=sse', async () => {
    vertex.gemini.enqueue({ type: 'generate', chunks: [[{ text: 'Sunny ' }], [{ text: 'in Paris.' }]] });
    const stream = await gateway
      .client()
      .chat.completions.create({ model: 'vertex/gemini-2.5-flash', stream: true, messages: [{ role: 'user', content: 'hi' }] });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    expect(text).toBe('Sunny in Paris.');
    expect(vertex.requests.at(-1)!.path).toBe(
      '/v1/projects/my-project/locations/us-east5/publishers/google/models/gemini-2.5-flash:streamGenerateContent?alt=sse',
    );
  });

  it('Claude: streamRawPredict with the Messages body, anthropic_version in it and no model; tools through the Messages API', async () => {
    vertex.anthropic.enqueue({ type: 'message', content: [{ type: 'tool_use', name: 'get_weather', input: { city: 'Oslo' } }] });
    const response = await fetch(`${gateway.baseUrl}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({
        model: 'vertex/claude-sonnet-4-5@20250929',
        max_tokens: 100,
        stream: true,
        messages: [{ role: 'user', content: 'Weather in Oslo?' }],
        tools: [{ name: 'get_weather', input_schema: weatherTool.function.parameters }],
      }),
    });
    const text = await response.text();
    expect(text).toContain('"name":"get_weather"');
    const sent = vertex.requests.at(-1)!;
    expect(sent.path).toBe(
      '/v1/projects/my-project/locations/us-east5/publishers/anthropic/models/claude-sonnet-4-5@20250929:streamRawPredict',
    );
    expect(sent.body).toMatchObject({ anthropic_version: 'vertex-2023-10-16', stream: true });
    expect(sent.body).not.toHaveProperty('model');
  });

  it("Claude: Anthropic's own bash and text editor tools go as their types, as Vertex AI's Claude takes them", async () => {
    // Vertex's Claude lists them among its tool types without a beta ("expected tags: 'bash_20250124', 'custom',
    // 'text_editor_20250124', 'text_editor_20250429', 'text_editor_20250728'", quoted in BerriAI/litellm#15299).
    vertex.anthropic.enqueue({ type: 'message', content: [{ type: 'tool_use', name: 'bash', input: { command: 'ls' } }] });
    const tools = [
      { type: 'bash_20250124', name: 'bash' },
      { type: 'text_editor_20250728', name: 'str_replace_based_edit_tool' },
    ];
    const response = await fetch(`${gateway.baseUrl}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({
        model: 'vertex/claude-sonnet-4-5@20250929',
        max_tokens: 100,
        messages: [{ role: 'user', content: 'ls' }],
        tools,
      }),
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ content: [{ type: 'tool_use', name: 'bash', input: { command: 'ls' } }] });
    expect((vertex.requests.at(-1)!.body as { tools: unknown }).tools).toEqual(tools);
  });

  it('Claude whole through the Responses API: rawPredict', async () => {
    vertex.anthropic.enqueue({ type: 'message', content: [{ type: 'text', text: 'hello from Claude' }] });
    const response = await gateway.client().responses.create({ model: 'vertex/claude-sonnet-4-5@20250929', input: 'hi' });
    expect(response.output_text).toBe('hello from Claude');
    expect(vertex.requests.at(-1)!.path).toMatch(/:rawPredict$/);
  });

  it("Vertex's errors keep their meaning: a project without the model is a 404", async () => {
    const response = await fetch(`${gateway.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'vertex-wrong/gemini-2.5-pro', messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(response.status).toBe(404);
    // Claude's calls too: Vertex answers them in Google's envelope before they reach Anthropic.
    const claude = await fetch(`${gateway.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'vertex-wrong/claude-sonnet-4-5@20250929', messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(claude.status).toBe(404);
    expect(((await claude.json()) as { error: { code: string } }).error.code).toBe('not_found');
  });

  it('credentials come from the token source (ADC or a key file in production); a missing one is a clear 502', async () => {
    const config = normalizeConfig(
      compileConfigFileValidator()({
        providers: { vertex: { type: 'vertex', baseUrl: vertex.url, project: 'my-project', location: 'us-east5' } },
      }),
      {},
    );
    const model = {
      id: 'vertex/gemini-2.5-pro',
      provider: 'vertex',
      providerType: 'vertex',
      model: 'gemini-2.5-pro',
      family: 'gemini',
      toolCalling: 'native',
    } as ResolvedModel;
    const context = {
      cancellation: cancellationFromSignal(new AbortController().signal),
      requestId: 'test',
      log: pino({ level: 'silent' }),
    };
    const request = { model, messages: [{ role: 'user' as const, content: [{ type: 'text' as const, text: 'hi' }] }] };
    let asked = 0;
    const adapter = createVertexAdapter(config.providers.vertex!, {
      // User credentials from `gcloud auth application-default login` name a quota project, which Vertex needs to see.
      getRequestHeaders: async () => (
        asked++,
        new Headers({ authorization: 'Bearer ya29.fake-token', 'x-goog-user-project': 'billing-project' })
      ),
    });
    vertex.gemini.enqueue({ type: 'generate', chunks: [[{ text: 'ok' }]] });
    const events: StreamEvent[] = [];
    for await (const event of await adapter.stream(request, context)) events.push(event);
    expect(events.at(-1)?.type).toBe('finish');
    expect(asked).toBe(1);
    expect(vertex.requests.at(-1)?.headers['x-goog-user-project']).toBe('billing-project');
    const missing = createVertexAdapter(config.providers.vertex!, {
      getRequestHeaders: async () => {
        throw new Error('Could not load the default credentials');
      },
    });
    await expect(missing.stream(request, context)).rejects.toMatchObject({
      status: 502,
      message: expect.stringContaining('GOOGLE_APPLICATION_CREDENTIALS'),
    });
  });

  it('derives the endpoint from the location, and requires the project', () => {
    const validate = compileConfigFileValidator();
    const regional = normalizeConfig(validate({ providers: { v: { type: 'vertex', project: 'p', location: 'europe-west4' } } }), {});
    expect(regional.providers.v?.baseUrl).toBe('https://europe-west4-aiplatform.googleapis.com');
    const global = normalizeConfig(validate({ providers: { v: { type: 'vertex', project: 'p', location: 'global' } } }), {});
    expect(global.providers.v?.baseUrl).toBe('https://aiplatform.googleapis.com');
    expect(() => normalizeConfig(validate({ providers: { v: { type: 'vertex', location: 'global' } } }), {})).toThrow(
      /providers\.v\.project/,
    );
  });
});

describe('Claude on Vertex AI without structured outputs (the organization policy default)', () => {
  let refusing: FakeVertex;
  let refusingGateway: StartedGateway;

  beforeAll(async () => {
    refusing = await startFakeVertex({
      project: 'my-project',
      location: 'us-east5',
      bearerTokens: () => ['ya29.fake-token'],
      withoutStructuredOutputs: true,
    });
    refusingGateway = await startGateway({
      providers: {
        vertex: testProvider('vertex', refusing.url, { project: 'my-project', location: 'us-east5', accessToken: 'ya29.fake-token' }),
      },
    });
  });

  afterAll(async () => {
    await refusingGateway?.close();
    await refusing?.close();
  });

  type Diagnosed = { diagnostics?: { warnings?: { code: string; message: string }[] } };
  const strictTool = {
    type: 'function' as const,
    function: { ...weatherTool.function, strict: true, parameters: { ...weatherTool.function.parameters, additionalProperties: false } },
  };
  /** Whether each tool of a request Vertex received was sent strict. */
  const strictSent = (recorded: FakeVertex['requests']) =>
    recorded.map((sent) => ((sent.body as { tools?: { strict?: boolean }[] }).tools ?? []).map((tool) => tool.strict === true));

  it('a refused strict tool goes again without strict, with a warning, and the model is remembered', async () => {
    const ask = () =>
      refusingGateway.client().chat.completions.create({
        model: 'vertex/claude-sonnet-4-6',
        max_tokens: 200,
        messages: [{ role: 'user', content: 'Weather in Oslo?' }],
        tools: [strictTool],
      });
    refusing.anthropic.enqueue({ type: 'message', content: [{ type: 'tool_use', name: 'get_weather', input: { city: 'Oslo' } }] });
    const first = await ask();
    expect(first.choices[0]?.message.tool_calls?.[0]).toMatchObject({ function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } });
    expect((first as Diagnosed).diagnostics?.warnings).toEqual([
      { code: 'strict-schema-not-guaranteed', message: expect.stringContaining('refused strict tool use') as string },
    ]);
    // The refused attempt, then the same request with the tool non-strict.
    expect(strictSent(refusing.requests)).toEqual([[true], [false]]);

    refusing.anthropic.enqueue({ type: 'message', content: [{ type: 'tool_use', name: 'get_weather', input: { city: 'Bergen' } }] });
    const second = await ask();
    expect(second.choices[0]?.message.tool_calls?.[0]).toMatchObject({ function: { arguments: '{"city":"Bergen"}' } });
    expect((second as Diagnosed).diagnostics?.warnings?.map((warning) => warning.code)).toEqual(['strict-schema-not-guaranteed']);
    // Remembered: no refused attempt this time.
    expect(strictSent(refusing.requests).slice(2)).toEqual([[false]]);
  });

  it('a refused output_config.format: the schema goes into the prompt instead, and the reply is checked', async () => {
    const schema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false };
    refusing.anthropic.enqueue({ type: 'message', content: [{ type: 'text', text: '{"city": "Oslo"}' }] });
    const before = refusing.requests.length;
    const completion = await refusingGateway.client().chat.completions.create({
      model: 'vertex/claude-opus-4-6',
      max_tokens: 200,
      messages: [{ role: 'user', content: 'Where is it snowing?' }],
      response_format: { type: 'json_schema', json_schema: { name: 'place', schema, strict: true } },
    });
    expect(JSON.parse(completion.choices[0]?.message.content ?? '')).toEqual({ city: 'Oslo' });
    const sent = refusing.requests.slice(before).map((recorded) => 'output_config' in (recorded.body as object));
    expect(sent).toEqual([true, false]);
  });
});

describe("Claude on Vertex AI refused by the organization policy's own words (no field named)", () => {
  let policed: FakeVertex;
  let policedGateway: StartedGateway;

  beforeAll(async () => {
    policed = await startFakeVertex({
      project: 'my-project',
      location: 'us-east5',
      bearerTokens: () => ['ya29.fake-token'],
      withoutStructuredOutputs: 'organization-policy',
    });
    policedGateway = await startGateway({
      providers: {
        vertex: testProvider('vertex', policed.url, { project: 'my-project', location: 'us-east5', accessToken: 'ya29.fake-token' }),
      },
    });
  });

  afterAll(async () => {
    await policedGateway?.close();
    await policed?.close();
  });

  it('"disallowed feature structured_outputs … :structured_outputs" is a refused native format: prompted, checked, warned', async () => {
    const schema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false };
    policed.anthropic.enqueue({ type: 'message', content: [{ type: 'text', text: '{"city": "Oslo"}' }] });
    const completion = await policedGateway.client().chat.completions.create({
      model: 'vertex/claude-opus-4-6',
      max_tokens: 200,
      messages: [{ role: 'user', content: 'Where is it snowing?' }],
      response_format: { type: 'json_schema', json_schema: { name: 'place', schema, strict: true } },
    });
    expect(JSON.parse(completion.choices[0]?.message.content ?? '')).toEqual({ city: 'Oslo' });
    const warnings = (completion as { diagnostics?: { warnings?: { code: string; message: string }[] } }).diagnostics?.warnings ?? [];
    expect(warnings.map((warning) => warning.message).join('\n')).toContain('refused the native response format');
    expect(policed.requests.map((recorded) => 'output_config' in (recorded.body as object))).toEqual([true, false]);
  });
});

describe("a client's anthropic-beta header on Claude through Vertex AI, which takes only the betas it lists", () => {
  let listing: FakeVertex;
  let listingGateway: StartedGateway;

  beforeAll(async () => {
    listing = await startFakeVertex({
      project: 'my-project',
      location: 'us-east5',
      bearerTokens: () => ['ya29.fake-token'],
      refusedBetas: ['structured-outputs-2025-11-13', 'files-api-2025-04-14'],
    });
    listingGateway = await startGateway({
      providers: {
        vertex: testProvider('vertex', listing.url, { project: 'my-project', location: 'us-east5', accessToken: 'ya29.fake-token' }),
      },
    });
  });

  afterAll(async () => {
    await listingGateway?.close();
    await listing?.close();
  });

  type Message = { content: { type: string; text?: string }[]; diagnostics?: { warnings?: { code: string; message: string }[] } };
  const ask = (betas: string, body: Record<string, unknown> = {}) =>
    fetch(`${listingGateway.baseUrl}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01', 'anthropic-beta': betas },
      body: JSON.stringify({
        model: 'vertex/claude-sonnet-4-5@20250929',
        max_tokens: 200,
        messages: [{ role: 'user', content: 'Where is it snowing?' }],
        ...body,
      }),
    });
  const betasSent = (from: number) => listing.requests.slice(from).map((recorded) => recorded.headers['anthropic-beta'] ?? null);

  it("structured outputs' beta is left out (the GA output_config needs none), with a warning; the other betas go", async () => {
    const schema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false };
    listing.anthropic.enqueue({ type: 'message', content: [{ type: 'text', text: '{"city":"Oslo"}' }] });
    const before = listing.requests.length;
    const response = await ask('structured-outputs-2025-11-13,interleaved-thinking-2025-05-14', {
      output_config: { format: { type: 'json_schema', schema } },
    });
    expect(response.status).toBe(200);
    const message = (await response.json()) as Message;
    expect(JSON.parse(message.content[0]?.text ?? '')).toEqual({ city: 'Oslo' });
    expect(message.diagnostics?.warnings).toContainEqual({
      code: 'unsupported-parameter',
      message: expect.stringContaining("anthropic-beta 'structured-outputs-2025-11-13' was not sent: Vertex AI") as string,
    });
    // No refused attempt: the beta never went.
    expect(betasSent(before)).toEqual(['interleaved-thinking-2025-05-14']);
    expect('output_config' in (listing.requests.at(-1)!.body as object)).toBe(true);
  });

  it('a beta Vertex refuses by name is left out of the same request sent again, and of later ones, with a warning', async () => {
    listing.anthropic.enqueue(
      { type: 'message', content: [{ type: 'text', text: 'It is snowing in Oslo.' }] },
      { type: 'message', content: [{ type: 'text', text: 'Still Oslo.' }] },
    );
    const before = listing.requests.length;
    const first = await ask('files-api-2025-04-14, context-1m-2025-08-07');
    expect(first.status).toBe(200);
    const warned = ((await first.json()) as Message).diagnostics?.warnings ?? [];
    expect(warned).toContainEqual({
      code: 'unsupported-parameter',
      message: expect.stringContaining("anthropic-beta 'files-api-2025-04-14' was not sent: Vertex AI") as string,
    });
    expect(betasSent(before)).toEqual(['files-api-2025-04-14,context-1m-2025-08-07', 'context-1m-2025-08-07']);

    const again = await ask('files-api-2025-04-14');
    expect(again.status).toBe(200);
    await again.arrayBuffer();
    expect(betasSent(before + 2)).toEqual([null]);
  });
});
