/** The bedrock kind against a fake Bedrock Runtime that checks Signature V4 and speaks the event-stream framing. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { normalizeConfig } from '../../../src/config/normalize-config.js';
import { compileConfigFileValidator } from '../../../src/config/validate-config-file.js';
import { startFakeBedrock, type FakeBedrock } from '../../helpers/fake-bedrock-server.js';
import { startGateway, testProvider, type StartedGateway } from '../../helpers/start-gateway.js';

const credentials = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY' };
const claude = 'anthropic.claude-sonnet-4-5-20250929-v1:0';
const llama = 'meta.llama3-1-70b-instruct-v1:0';
const haiku = 'anthropic.claude-3-5-haiku-20241022-v1:0';
const weatherTool = {
  type: 'function' as const,
  function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
};

let bedrock: FakeBedrock;
let gateway: StartedGateway;

beforeAll(async () => {
  bedrock = await startFakeBedrock({
    region: 'us-east-1',
    ...credentials,
    modelsWithoutTools: ['meta.llama3-8b-instruct-v1:0'],
    modelsWithoutToolChoice: [llama],
    modelsWithoutStructuredOutputs: ['amazon.nova-lite-v1:0'],
  });
  gateway = await startGateway({
    providers: {
      bedrock: testProvider('bedrock', bedrock.url, { region: 'us-east-1', ...credentials }),
      'bedrock-backup': testProvider('bedrock', bedrock.url, { region: 'us-east-1', ...credentials }),
      'bedrock-wrong': testProvider('bedrock', bedrock.url, {
        region: 'us-east-1',
        accessKeyId: 'AKIDEXAMPLE',
        secretAccessKey: 'not-the-secret',
      }),
    },
    fallbacks: { [`bedrock/${haiku}`]: [`bedrock-backup/${claude}`] },
  });
});

/** A Messages API request to the gateway, as a client sends one. */
function postMessages(body: unknown): Promise<Response> {
  return fetch(`${gateway.baseUrl}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
    body: JSON.stringify(body),
  });
}

afterAll(async () => {
  await gateway.close();
  await bedrock.close();
});

describe('bedrock', () => {
  it('Converse: a signed request with the tools as toolSpecs; the tool use comes back as a call', async () => {
    bedrock.enqueue({ type: 'message', toolUses: [{ name: 'get_weather', input: { city: 'Paris' } }] });
    const completion = await gateway.client().chat.completions.create({
      model: `bedrock/${claude}`,
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Weather in Paris?' },
      ],
      tools: [weatherTool],
      max_tokens: 200,
    });
    expect(completion.choices[0]?.finish_reason).toBe('tool_calls');
    expect(completion.choices[0]?.message.tool_calls?.[0]).toMatchObject({
      function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
    });
    const sent = bedrock.requests.at(-1)!;
    expect(sent.path).toBe(`/model/${encodeURIComponent(claude)}/converse`);
    expect(sent.body).toMatchObject({
      system: [{ text: 'Be brief.' }],
      messages: [{ role: 'user', content: [{ text: 'Weather in Paris?' }] }],
      toolConfig: { tools: [{ toolSpec: { name: 'get_weather', inputSchema: { json: weatherTool.function.parameters } } }] },
      inferenceConfig: { maxTokens: 200 },
    });
  });

  it('ConverseStream: the event-stream frames become a streamed reply, text and tool call', async () => {
    bedrock.enqueue({ type: 'message', text: 'Checking the weather.', toolUses: [{ name: 'get_weather', input: { city: 'Oslo' } }] });
    const stream = await gateway.client().chat.completions.create({
      model: `bedrock/${claude}`,
      stream: true,
      messages: [{ role: 'user', content: 'Weather in Oslo?' }],
      tools: [weatherTool],
    });
    let text = '';
    let args = '';
    let finish: string | null | undefined;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      args += chunk.choices[0]?.delta.tool_calls?.[0]?.function?.arguments ?? '';
      finish = chunk.choices[0]?.finish_reason ?? finish;
    }
    expect(text).toBe('Checking the weather.');
    expect(JSON.parse(args)).toEqual({ city: 'Oslo' });
    expect(finish).toBe('tool_calls');
    expect(bedrock.requests.at(-1)!.path).toMatch(/\/converse-stream$/);
  });

  it('the tool result goes back as a toolResult block in a user turn, through the Messages API', async () => {
    bedrock.enqueue({ type: 'message', text: 'It is sunny.' });
    const response = await postMessages({
      model: `bedrock/${claude}`,
      max_tokens: 100,
      messages: [
        { role: 'user', content: 'Weather in Oslo?' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'tooluse_1', name: 'get_weather', input: { city: 'Oslo' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'tooluse_1', content: 'sunny' }] },
      ],
      tools: [{ name: 'get_weather', input_schema: weatherTool.function.parameters }],
    });
    const message = (await response.json()) as { content: { text?: string }[] };
    expect(message.content[0]?.text).toBe('It is sunny.');
    const sent = bedrock.requests.at(-1)!.body as { messages: { role: string; content: Record<string, unknown>[] }[] };
    expect(sent.messages[1]?.content[0]).toMatchObject({
      toolUse: { toolUseId: 'tooluse_1', name: 'get_weather', input: { city: 'Oslo' } },
    });
    expect(sent.messages[2]).toMatchObject({
      role: 'user',
      content: [{ toolResult: { toolUseId: 'tooluse_1', content: [{ text: 'sunny' }], status: 'success' } }],
    });
  });

  it("ids outside Converse's pattern or past 64 characters are re-spelled, alike in the call and its result", async () => {
    // Kimi K2's own ids (functions.NAME:IDX), as the prompted lane returns them, and a client's long id.
    const longId = `call_${'x'.repeat(80)}`;
    bedrock.enqueue({ type: 'message', text: 'Both are mild.' });
    const response = await fetch(`${gateway.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        model: `bedrock/${claude}`,
        messages: [
          { role: 'user', content: 'Weather in Oslo and Rome?' },
          {
            role: 'assistant',
            content: null,
            tool_calls: [
              { id: 'functions.get_weather:0', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } },
              { id: longId, type: 'function', function: { name: 'get_weather', arguments: '{"city":"Rome"}' } },
            ],
          },
          { role: 'tool', tool_call_id: longId, content: '21C' },
          { role: 'tool', tool_call_id: 'functions.get_weather:0', content: '9C' },
        ],
        tools: [weatherTool],
      }),
    });
    expect(response.status).toBe(200);
    const sent = bedrock.requests.at(-1)!.body as {
      messages: { content: { toolUse?: { toolUseId: string }; toolResult?: { toolUseId: string } }[] }[];
    };
    const callIds = sent.messages[1]!.content.map((block) => block.toolUse?.toolUseId ?? '');
    expect(callIds.every((id) => /^[a-zA-Z0-9_-]{1,64}$/.test(id))).toBe(true);
    expect(new Set(callIds).size).toBe(2);
    expect(sent.messages[2]!.content.map((block) => block.toolResult?.toolUseId)).toEqual([callIds[1], callIds[0]]);
  });

  it('what Converse refuses is sent as it accepts it: results before text, an old tool exchange without tools, a tool without an object schema', async () => {
    // The client's turn after the tool use says something before the result: Claude wants the result first.
    bedrock.enqueue({ type: 'message', text: 'Sunny, as you said.' });
    const history = [
      { role: 'user' as const, content: 'Weather in Oslo?' },
      {
        role: 'assistant' as const,
        content: null,
        tool_calls: [{ id: 'tooluse_1', type: 'function' as const, function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } }],
      },
      { role: 'user' as const, content: 'I think it is sunny.' },
      { role: 'tool' as const, tool_call_id: 'tooluse_1', content: 'sunny' },
    ];
    const answered = await gateway
      .client()
      .chat.completions.create({ model: `bedrock/${claude}`, messages: history, tools: [weatherTool] });
    expect(answered.choices[0]?.message.content).toBe('Sunny, as you said.');
    const merged = (bedrock.requests.at(-1)!.body as { messages: { content: Record<string, unknown>[] }[] }).messages[2]!.content;
    expect(Object.keys(merged[0]!)).toEqual(['toolResult']);
    expect(merged[1]).toEqual({ text: 'I think it is sunny.' });

    // The same history with no tools offered (a title or summary request): Converse still needs a toolConfig;
    // the placeholder goes, and a call to it never reaches the client.
    bedrock.enqueue({ type: 'message', toolUses: [{ name: 'interlingua_no_tools_offered', input: {} }], text: 'Oslo weather' });
    const titled = await gateway.client().chat.completions.create({ model: `bedrock/${claude}`, messages: history });
    expect(titled.choices[0]?.message).toMatchObject({ content: 'Oslo weather' });
    expect(titled.choices[0]?.message.tool_calls ?? []).toEqual([]);
    expect(titled.choices[0]?.finish_reason).toBe('stop');
    const toolConfig = (bedrock.requests.at(-1)!.body as { toolConfig: { tools: { toolSpec: { name: string } }[] } }).toolConfig;
    expect(toolConfig.tools.map((tool) => tool.toolSpec.name)).toEqual(['interlingua_no_tools_offered']);

    // A tool declared without parameters: Converse takes only an object schema.
    bedrock.enqueue({ type: 'message', text: 'ok' });
    const bare = await gateway.client().chat.completions.create({
      model: `bedrock/${claude}`,
      messages: [{ role: 'user', content: 'What time is it?' }],
      tools: [{ type: 'function', function: { name: 'now' } }],
    });
    expect(bare.choices[0]?.message.content).toBe('ok');
  });

  it('what Converse calls blank is left out: an empty assistant text beside its calls, a whitespace block, an empty tool result', async () => {
    bedrock.enqueue({ type: 'message', text: 'Nothing came back.' });
    const response = await postMessages({
      model: `bedrock/${claude}`,
      max_tokens: 100,
      messages: [
        { role: 'user', content: 'Weather in Oslo?' },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: '\n\n' },
            { type: 'tool_use', id: 'tooluse_1', name: 'get_weather', input: { city: 'Oslo' } },
          ],
        },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'tooluse_1', content: '' }] },
      ],
      tools: [{ name: 'get_weather', input_schema: weatherTool.function.parameters }],
    });
    expect(response.status).toBe(200);
    const sent = bedrock.requests.at(-1)!.body as { messages: { content: Record<string, unknown>[] }[] };
    expect(sent.messages[1]?.content.map((block) => Object.keys(block)[0])).toEqual(['toolUse']);
    expect(sent.messages[2]?.content[0]).toMatchObject({ toolResult: { content: [{ text: '(no output)' }] } });

    // Chat Completions' `content: ""` beside tool calls, and an earlier empty reply: no blank block, no empty turn.
    bedrock.enqueue({ type: 'message', text: 'ok' });
    const completion = await gateway.client().chat.completions.create({
      model: `bedrock/${claude}`,
      tools: [weatherTool],
      messages: [
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: '' },
        { role: 'user', content: 'Weather in Oslo?' },
        {
          role: 'assistant',
          content: '',
          tool_calls: [{ id: 'tooluse_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } }],
        },
        { role: 'tool', tool_call_id: 'tooluse_1', content: 'sunny' },
      ],
    });
    expect(completion.choices[0]?.message.content).toBe('ok');
    const merged = bedrock.requests.at(-1)!.body as { messages: { role: string; content: Record<string, unknown>[] }[] };
    expect(merged.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user']);
    expect(merged.messages[0]?.content).toEqual([{ text: 'hi' }, { text: 'Weather in Oslo?' }]);
  });

  it("an image in a data: URL reaches Converse as the payload's bytes in the header's format; an image URL is left out with a warning", async () => {
    const png = 'iVBORw0KGgoAAAANSUhEUg==';
    bedrock.enqueue({ type: 'message', text: 'A pixel.' });
    const response = await fetch(`${gateway.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        model: `bedrock/${claude}`,
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'What is this?' },
              { type: 'image_url', image_url: { url: `data:image/png;base64,${png}` } },
              { type: 'image_url', image_url: { url: 'https://example.com/cat.jpg' } },
            ],
          },
        ],
      }),
    });
    const body = (await response.json()) as { diagnostics?: { warnings?: { code: string; message: string }[] } };
    expect(response.status).toBe(200);
    const sent = bedrock.requests.at(-1)!.body as { messages: { content: Record<string, unknown>[] }[] };
    // The SDK writes blob members as base64: the same text means the same bytes.
    expect(sent.messages[0]?.content).toEqual([{ text: 'What is this?' }, { image: { format: 'png', source: { bytes: png } } }]);
    expect(body.diagnostics?.warnings).toContainEqual(
      expect.objectContaining({ code: 'unsupported-content', message: expect.stringContaining('inline only') }),
    );
  });

  it('a model that takes no tool_choice gets the tools with its own choice, and the client a warning', async () => {
    bedrock.enqueue({ type: 'message', toolUses: [{ name: 'get_weather', input: { city: 'Lima' } }] });
    const response = await fetch(`${gateway.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        model: `bedrock/${llama}`,
        messages: [{ role: 'user', content: 'Weather in Lima?' }],
        tools: [weatherTool],
        tool_choice: 'required',
      }),
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as {
      choices: { message: { tool_calls: { function: { name: string } }[] } }[];
      diagnostics?: { warnings?: { message: string }[] };
    };
    expect(body.choices[0]?.message.tool_calls[0]?.function.name).toBe('get_weather');
    expect(JSON.stringify(body.diagnostics?.warnings)).toContain('takes no tool_choice');
    const [refused, accepted] = bedrock.requests.slice(-2).map((request) => request.body as { toolConfig: { toolChoice?: unknown } });
    expect(refused?.toolConfig.toolChoice).toEqual({ any: {} });
    expect(accepted?.toolConfig.toolChoice).toBeUndefined();
  });

  it('an exception inside the stream keeps its meaning: a throttle after the first text is a rate-limit error event', async () => {
    bedrock.enqueue({
      type: 'message',
      text: 'Partly',
      streamException: { type: 'throttlingException', message: 'Too many tokens, please wait.' },
    });
    const response = await fetch(`${gateway.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: `bedrock/${claude}`, stream: true, messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text).toContain('"content":"Part"');
    const errorFrame = text.split('\n').find((line) => line.includes('"error"'));
    expect(errorFrame).toContain('Too many tokens, please wait.');
    expect(JSON.parse(errorFrame!.slice('data: '.length))).toMatchObject({ error: { type: 'rate_limit_error' } });
  });

  it('top_k reaches Claude through additionalModelRequestFields; extras Converse has no field for are named', async () => {
    bedrock.enqueue({ type: 'message', text: 'ok' });
    const response = await postMessages({
      model: `bedrock/${claude}`,
      max_tokens: 50,
      top_k: 15,
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(response.status).toBe(200);
    expect((bedrock.requests.at(-1)!.body as Record<string, unknown>).additionalModelRequestFields).toEqual({ top_k: 15 });
    bedrock.enqueue({ type: 'message', text: 'ok' });
    const completion = (await (
      await fetch(`${gateway.baseUrl}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: `bedrock/${llama}`, min_p: 0.1, messages: [{ role: 'user', content: 'hi' }] }),
      })
    ).json()) as { diagnostics?: { warnings?: { message: string }[] } };
    expect(JSON.stringify(completion.diagnostics?.warnings)).toContain('min_p');
  });

  it("a client's anthropic-beta reaches Claude as the body's anthropic_beta; those Bedrock refuses are left out, with a warning", async () => {
    const withBetas = (betas: string, model = claude) =>
      fetch(`${gateway.baseUrl}/v1/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01', 'anthropic-beta': betas },
        body: JSON.stringify({ model: `bedrock/${model}`, max_tokens: 50, messages: [{ role: 'user', content: 'hi' }] }),
      });
    type Diagnosed = { diagnostics?: { warnings?: { code: string; message: string }[] } };
    const betasSent = (from: number) =>
      bedrock.requests
        .slice(from)
        .map(
          (recorded) =>
            (recorded.body as { additionalModelRequestFields?: { anthropic_beta?: string[] } }).additionalModelRequestFields
              ?.anthropic_beta,
        );
    bedrock.enqueue(
      { type: 'message', text: 'ok' },
      { type: 'message', text: 'ok' },
      { type: 'message', text: 'ok' },
      { type: 'message', text: 'ok' },
    );

    // Structured outputs' beta is known: Converse's outputConfig carries them without it.
    let before = bedrock.requests.length;
    const known = await withBetas('structured-outputs-2025-11-13, context-1m-2025-08-07');
    expect(known.status).toBe(200);
    expect(((await known.json()) as Diagnosed).diagnostics?.warnings).toContainEqual({
      code: 'unsupported-parameter',
      message: expect.stringContaining("anthropic-beta 'structured-outputs-2025-11-13' was not sent: Bedrock") as string,
    });
    expect(betasSent(before)).toEqual([['context-1m-2025-08-07']]);

    // Another is refused ("invalid beta flag", naming none): the request goes again without the client's betas, and later ones too.
    before = bedrock.requests.length;
    const refused = await withBetas('files-api-2025-04-14,context-1m-2025-08-07');
    expect(refused.status).toBe(200);
    const warned = ((await refused.json()) as Diagnosed).diagnostics?.warnings?.map((warning) => warning.message) ?? [];
    expect(warned.filter((message) => message.startsWith('anthropic-beta'))).toEqual([
      expect.stringContaining("'files-api-2025-04-14' was not sent") as string,
      expect.stringContaining("'context-1m-2025-08-07' was not sent") as string,
    ]);
    expect(betasSent(before)).toEqual([['files-api-2025-04-14', 'context-1m-2025-08-07'], undefined]);
    before = bedrock.requests.length;
    const later = await withBetas('files-api-2025-04-14');
    expect(later.status).toBe(200);
    await later.arrayBuffer();
    expect(betasSent(before)).toEqual([undefined]);

    // A model that is not Claude has no betas.
    before = bedrock.requests.length;
    const notClaude = await withBetas('context-1m-2025-08-07', llama);
    expect(notClaude.status).toBe(200);
    expect(JSON.stringify(((await notClaude.json()) as Diagnosed).diagnostics?.warnings)).toContain('is not Claude');
    expect(betasSent(before)).toEqual([undefined]);
  });

  it('tool_choice none withholds the tools (Converse has no none), so the model cannot call one the client forbade', async () => {
    bedrock.enqueue({ type: 'message', text: 'I will not call anything.' });
    const completion = await gateway.client().chat.completions.create({
      model: `bedrock/${claude}`,
      messages: [{ role: 'user', content: 'Weather in Oslo?' }],
      tools: [weatherTool],
      tool_choice: 'none',
    });
    expect(completion.choices[0]?.message.content).toBe('I will not call anything.');
    expect(bedrock.requests.at(-1)!.body).not.toHaveProperty('toolConfig');

    // With an earlier tool exchange Converse wants a toolConfig: the placeholder, whose calls never reach the client.
    bedrock.enqueue({ type: 'message', toolUses: [{ name: 'interlingua_no_tools_offered', input: {} }], text: 'Sunny.' });
    const followUp = await gateway.client().chat.completions.create({
      model: `bedrock/${claude}`,
      tools: [weatherTool],
      tool_choice: 'none',
      messages: [
        { role: 'user', content: 'Weather in Oslo?' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'tooluse_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } }],
        },
        { role: 'tool', tool_call_id: 'tooluse_1', content: 'sunny' },
      ],
    });
    expect(followUp.choices[0]?.message).toMatchObject({ content: 'Sunny.' });
    expect(followUp.choices[0]?.message.tool_calls ?? []).toEqual([]);
    const toolConfig = (bedrock.requests.at(-1)!.body as { toolConfig: { tools: { toolSpec: { name: string } }[] } }).toolConfig;
    expect(toolConfig.tools.map((tool) => tool.toolSpec.name)).toEqual(['interlingua_no_tools_offered']);
  });

  it('what Converse has no field for is named, not dropped in silence: reasoning on a model without it, user, parallel_tool_calls off', async () => {
    bedrock.enqueue({ type: 'message', text: 'ok' });
    const completion = (await (
      await fetch(`${gateway.baseUrl}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          model: `bedrock/${llama}`,
          reasoning_effort: 'high',
          user: 'user-1',
          parallel_tool_calls: false,
          tools: [weatherTool],
          messages: [{ role: 'user', content: 'hi' }],
        }),
      })
    ).json()) as { diagnostics?: { warnings?: { message: string }[] } };
    const messages = (completion.diagnostics?.warnings ?? []).map((warning) => warning.message).join('\n');
    expect(messages).toContain("reasoning_effort 'high'");
    expect(messages).toContain('no user');
    expect(messages).toContain('parallel tool calls');
  });

  it("Claude's thinking: a budget for Claude 4.5 (with room for the answer), adaptive with the effort for Claude 4.6 and later", async () => {
    bedrock.enqueue({ type: 'message', text: 'ok' });
    await gateway.client().chat.completions.create({
      model: `bedrock/${claude}`,
      reasoning_effort: 'medium',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(bedrock.requests.at(-1)!.body).toMatchObject({
      additionalModelRequestFields: { thinking: { type: 'enabled', budget_tokens: 4096 } },
      inferenceConfig: { maxTokens: 4096 + 4096 },
    });
    const opus = 'us.anthropic.claude-opus-4-7';
    bedrock.enqueue({ type: 'message', text: 'ok' });
    const completion = await gateway.client().chat.completions.create({
      model: `bedrock/${opus}`,
      reasoning_effort: 'high',
      max_tokens: 20000,
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(completion.choices[0]?.message.content).toBe('ok');
    const sent = bedrock.requests.at(-1)!.body as Record<string, unknown>;
    expect(sent).toMatchObject({
      additionalModelRequestFields: { thinking: { type: 'adaptive' } },
      outputConfig: { effort: 'high' },
      inferenceConfig: { maxTokens: 20000 },
    });
  });

  it("Claude Code's adaptive thinking reaches Claude on Bedrock through the Messages API", async () => {
    bedrock.enqueue({ type: 'message', text: 'ok' });
    const response = await postMessages({
      model: 'bedrock/anthropic.claude-sonnet-4-6',
      max_tokens: 32000,
      thinking: { type: 'adaptive' },
      output_config: { effort: 'high' },
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(response.status).toBe(200);
    expect(bedrock.requests.at(-1)!.body).toMatchObject({
      additionalModelRequestFields: { thinking: { type: 'adaptive' } },
      outputConfig: { effort: 'high' },
    });
  });

  it("Claude Code's cache breakpoints reach Claude on Bedrock as cachePoint blocks after what they cover, and no other model", async () => {
    const ephemeral = { type: 'ephemeral' };
    const body = (model: string) => ({
      model,
      max_tokens: 1024,
      system: [{ type: 'text', text: 'You are Claude Code.', cache_control: ephemeral }],
      tools: [{ name: 'Bash', input_schema: { type: 'object', properties: {} }, cache_control: { type: 'ephemeral', ttl: '1h' } }],
      messages: [{ role: 'user', content: [{ type: 'text', text: 'List files', cache_control: ephemeral }] }],
    });
    const send = async (model: string) => {
      bedrock.enqueue({ type: 'message', text: 'ok' });
      const response = await postMessages(body(model));
      expect(response.status).toBe(200);
      return bedrock.requests.at(-1)!.body as { system: unknown[]; messages: { content: unknown[] }[]; toolConfig: { tools: unknown[] } };
    };
    const point = { cachePoint: { type: 'default' } };
    const toClaude = await send(`bedrock/${claude}`);
    expect(toClaude.system).toEqual([{ text: 'You are Claude Code.' }, point]);
    expect(toClaude.toolConfig.tools.at(-1)).toEqual({ cachePoint: { type: 'default', ttl: '1h' } });
    expect(toClaude.messages[0]?.content).toEqual([{ text: 'List files' }, point]);
    const toLlama = await send(`bedrock/${llama}`);
    expect(JSON.stringify(toLlama)).not.toContain('cachePoint');
  });

  it('Responses API, addressed by an inference profile ARN', async () => {
    bedrock.enqueue({ type: 'message', text: 'hello' });
    const arn = 'arn:aws:bedrock:us-east-1:123456789012:inference-profile/us.anthropic.claude-sonnet-4-5-20250929-v1:0';
    const response = await gateway.client().responses.create({ model: `bedrock/${arn}`, input: 'hi' });
    expect(response.output_text).toBe('hello');
    expect(bedrock.requests.at(-1)!.path).toBe(`/model/${encodeURIComponent(arn)}/converse`);
  });

  it("Bedrock's errors keep their meaning: a wrong secret is the gateway's (502), throttling 429, a bad request 400", async () => {
    const wrong = await fetch(`${gateway.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: `bedrock-wrong/${claude}`, messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(wrong.status).toBe(502);
    expect(((await wrong.json()) as { error: { code: string } }).error.code).toBe('upstream_authentication_failed');
    bedrock.enqueue({
      type: 'error',
      status: 429,
      errorType: 'ThrottlingException',
      message: 'Too many requests, please wait before trying again.',
    });
    const throttled = await fetch(`${gateway.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: `bedrock/${claude}`, messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(throttled.status).toBe(429);
    expect(((await throttled.json()) as { error: { message: string } }).error.message).toContain('Too many requests');
    bedrock.enqueue({ type: 'error', status: 400, errorType: 'ValidationException', message: 'The provided model identifier is invalid.' });
    const invalid = await fetch(`${gateway.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'bedrock/no-such-model', messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(invalid.status).toBe(400);
    expect(await invalid.json()).toMatchObject({
      error: { type: 'invalid_request_error', code: 'ValidationException', message: 'The provided model identifier is invalid.' },
    });
  });

  it.each([
    [429, 'ThrottlingException', 'Too many requests, please wait before trying again.', 429, 'rate_limit_error'],
    [503, 'ServiceUnavailableException', 'The service is unavailable. Please try again later.', 503, 'upstream_error'],
    [500, 'InternalServerException', 'The server encountered an internal error.', 500, 'upstream_error'],
    [404, 'ResourceNotFoundException', 'Model not found.', 404, 'not_found_error'],
    // Bedrock's 429 for a model still loading is no rate limit: the upstream is unavailable for now.
    [429, 'ModelNotReadyException', 'Model is not ready for inference. Wait and try your request again.', 503, 'upstream_error'],
  ])(
    '%i %s reaches the client as its name (the code), an honest status and type, and its message',
    async (status, errorType, message, clientStatus, type) => {
      bedrock.enqueue({ type: 'error', status, errorType, message });
      const failed = await fetch(`${gateway.baseUrl}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: `bedrock/${llama}`, messages: [{ role: 'user', content: 'hi' }] }),
      });
      expect(failed.status).toBe(clientStatus);
      const envelope = (await failed.json()) as { error: { type: string; code: string; message: string } };
      expect(envelope.error).toMatchObject({ type, code: errorType });
      expect(envelope.error.message).toContain(message);
    },
  );

  it("403 AccessDeniedException is the gateway's AWS credentials refused: a 502 upstream_authentication_failed naming the provider", async () => {
    bedrock.enqueue({
      type: 'error',
      status: 403,
      errorType: 'AccessDeniedException',
      message: "You don't have access to the model with the specified model ID.",
    });
    const failed = await fetch(`${gateway.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: `bedrock/${llama}`, messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(failed.status).toBe(502);
    const envelope = (await failed.json()) as { error: { type: string; code: string; message: string } };
    expect(envelope.error).toMatchObject({ type: 'upstream_error', code: 'upstream_authentication_failed' });
    expect(envelope.error.message).toContain("Upstream provider 'bedrock'");
  });

  it("a model that failed is the upstream failing, not the client's mistake: 502 and a fallback, 504 for its timeout, upstream_error mid-stream", async () => {
    // The fallback target answers: a failed model is worth another try, where a bad request is not.
    bedrock.enqueue(
      {
        type: 'error',
        status: 424,
        errorType: 'ModelErrorException',
        message: 'The system encountered an unexpected error during processing.',
      },
      { type: 'message', text: 'From the backup.' },
    );
    const recovered = await gateway
      .client()
      .chat.completions.create({ model: `bedrock/${haiku}`, messages: [{ role: 'user', content: 'hi' }] });
    expect(recovered.choices[0]?.message.content).toBe('From the backup.');

    bedrock.enqueue({ type: 'error', status: 424, errorType: 'ModelErrorException', message: 'The model failed.' });
    const failed = await postMessages({ model: `bedrock/${claude}`, max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] });
    expect(failed.status).toBe(502);
    const envelope = (await failed.json()) as { error: { type: string; message: string } };
    expect(envelope.error.type).not.toBe('invalid_request_error');
    expect(envelope.error.message).toContain('ModelErrorException');

    bedrock.enqueue({ type: 'error', status: 408, errorType: 'ModelTimeoutException', message: 'The request took too long to process.' });
    const slow = await fetch(`${gateway.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: `bedrock/${llama}`, messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(slow.status).toBe(504);

    bedrock.enqueue({
      type: 'message',
      text: 'Half',
      streamException: { type: 'modelStreamErrorException', message: 'The model stream failed.' },
    });
    const streamed = await fetch(`${gateway.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: `bedrock/${llama}`, stream: true, messages: [{ role: 'user', content: 'hi' }] }),
    });
    const errorFrame = (await streamed.text()).split('\n').find((line) => line.includes('"error"'));
    expect(JSON.parse(errorFrame!.slice('data: '.length))).toMatchObject({ error: { type: 'upstream_error' } });
  });

  it('derives the endpoint from the region, requires it, and keeps the secret out of nothing but the signer', () => {
    const validate = compileConfigFileValidator();
    const config = normalizeConfig(validate({ providers: { b: { type: 'bedrock', region: 'eu-west-3' } } }), {});
    expect(config.providers.b?.baseUrl).toBe('https://bedrock-runtime.eu-west-3.amazonaws.com');
    expect(() => normalizeConfig(validate({ providers: { b: { type: 'bedrock' } } }), {})).toThrow(/providers\.b\.region/);
  });

  it('a schema Bedrock\'s grammar compiler gives up on ("Schema is too complex.") goes again in the prompt, with a warning quoting it', async () => {
    // Bedrock checks a schema before any model runs and answers a ValidationException for one too complex to compile
    // ("Schema is too complex.", or Claude's "Grammar compilation timed out." after about 180 s, as users of Claude on
    // Bedrock quote them); no size that triggers it is documented, so the test scripts the refusal.
    const schema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false };
    bedrock.enqueue(
      {
        type: 'error',
        status: 400,
        errorType: 'ValidationException',
        message: 'The model returned the following errors: Schema is too complex.',
      },
      { type: 'message', text: '{"city": "Lyon"}' },
    );
    const before = bedrock.requests.length;
    const completion = await gateway.client().chat.completions.create({
      model: `bedrock/${claude}`,
      messages: [{ role: 'user', content: 'A city as JSON' }],
      response_format: { type: 'json_schema', json_schema: { name: 'place', schema } },
    });
    expect(JSON.parse(completion.choices[0]?.message.content ?? '')).toEqual({ city: 'Lyon' });
    const warnings =
      (completion as unknown as { diagnostics?: { warnings?: { code: string; message: string }[] } }).diagnostics?.warnings ?? [];
    expect(warnings).toContainEqual({
      code: 'unsupported-parameter',
      message: expect.stringContaining('Schema is too complex.') as string,
    });
    expect(bedrock.requests.slice(before).map((recorded) => 'outputConfig' in (recorded.body as object))).toEqual([true, false]);
  });

  it("response_format json_schema goes as Converse's outputConfig.textFormat, the schema as JSON text, and the reply is checked", async () => {
    const schema = { type: 'object', properties: { city: { type: 'string' }, celsius: { type: 'number' } }, required: ['city', 'celsius'] };
    bedrock.enqueue({ type: 'message', text: '{"city": "Paris", "celsius": 21}' });
    const completion = await gateway.client().chat.completions.create({
      model: `bedrock/${claude}`,
      messages: [{ role: 'user', content: 'Weather in Paris as JSON' }],
      response_format: { type: 'json_schema', json_schema: { name: 'weather', description: 'The weather', schema, strict: true } },
    });
    expect(JSON.parse(completion.choices[0]?.message.content ?? '')).toEqual({ city: 'Paris', celsius: 21 });
    const sent = bedrock.requests.at(-1)!.body as { system?: unknown; outputConfig?: unknown };
    expect(sent.outputConfig).toEqual({
      textFormat: {
        type: 'json_schema',
        // Closed, as Bedrock's grammar requires every object to be (grammar-schema-subset.ts).
        structure: {
          jsonSchema: { schema: JSON.stringify({ ...schema, additionalProperties: false }), name: 'weather', description: 'The weather' },
        },
      },
    });
    expect(sent.system).toBeUndefined();
    const warnings = (completion as unknown as { diagnostics?: { warnings?: { code: string }[] } }).diagnostics?.warnings ?? [];
    expect(warnings.map((warning) => warning.code)).not.toContain('strict-schema-not-guaranteed');
  });

  it('a model without structured outputs refuses outputConfig: the same request is served with the schema in the prompt, and the model keeps that way', async () => {
    const nova = 'amazon.nova-lite-v1:0';
    const schema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };
    const ask = () =>
      gateway.client().chat.completions.create({
        model: `bedrock/${nova}`,
        messages: [{ role: 'user', content: 'City as JSON' }],
        response_format: { type: 'json_schema', json_schema: { name: 'place', schema } },
      });
    bedrock.enqueue({ type: 'message', text: 'Here it is: {"city": "Lyon"}' });
    const first = await ask();
    expect(JSON.parse(first.choices[0]?.message.content ?? '')).toEqual({ city: 'Lyon' });
    const novaRequests = () => bedrock.requests.filter((request) => request.path.includes(encodeURIComponent(nova)));
    const [refused, served] = novaRequests().map((request) => request.body as { outputConfig?: unknown; system?: { text: string }[] });
    expect(refused?.outputConfig).toBeDefined();
    expect(served?.outputConfig).toBeUndefined();
    expect(served?.system?.map((block) => block.text).join('\n')).toContain(JSON.stringify(schema));
    const warnings = (first as unknown as { diagnostics?: { warnings?: { code: string; message: string }[] } }).diagnostics?.warnings ?? [];
    expect(warnings.map((warning) => warning.code)).toContain('unsupported-parameter');
    bedrock.enqueue({ type: 'message', text: '{"city": "Nice"}' });
    await ask();
    expect(novaRequests()).toHaveLength(3);
    expect((novaRequests()[2]!.body as { outputConfig?: unknown }).outputConfig).toBeUndefined();
  });

  it('json_object has no Converse form: it is written into the prompt, and nothing is sent in outputConfig', async () => {
    bedrock.enqueue({ type: 'message', text: '{"ok": true}' });
    const completion = await gateway.client().chat.completions.create({
      model: `bedrock/${claude}`,
      messages: [{ role: 'user', content: 'Say ok as JSON' }],
      response_format: { type: 'json_object' },
    });
    expect(JSON.parse(completion.choices[0]?.message.content ?? '')).toEqual({ ok: true });
    const sent = bedrock.requests.at(-1)!.body as { system?: { text: string }[]; outputConfig?: unknown };
    expect(sent.outputConfig).toBeUndefined();
    expect(sent.system?.map((block) => block.text).join('\n')).toMatch(/JSON/);
  });

  it('a model without tool use refuses natively; the same request is served prompted, and the model stays prompted', async () => {
    const llama = 'meta.llama3-8b-instruct-v1:0';
    bedrock.enqueue({ type: 'message', text: '<|python_tag|>{"name": "get_weather", "parameters": {"city": "Rome"}}' });
    const response = await gateway
      .client()
      .chat.completions.create({
        model: `bedrock/${llama}`,
        messages: [{ role: 'user', content: 'Weather in Rome?' }],
        tools: [weatherTool],
      })
      .withResponse();
    expect(response.response.headers.get('x-tool-calling')).toBe('prompted');
    const calls = bedrock.requests.filter((request) => request.path.includes(encodeURIComponent(llama)));
    expect(calls).toHaveLength(2);
    expect((calls[1]!.body as { toolConfig?: unknown }).toolConfig).toBeUndefined();
    expect(response.data.choices[0]?.message.tool_calls?.[0]).toMatchObject({ function: { name: 'get_weather' } });
  });
});
