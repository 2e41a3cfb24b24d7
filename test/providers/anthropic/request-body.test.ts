/** What the anthropic adapter sends upstream: body translation, headers, defaults and warnings. */
import { describe, expect, it } from 'vitest';
import type { ChatRequest, StreamEvent } from '../../../src/core/index.js';
import type { ProviderConfig } from '../../../src/config/config-types.js';
import { collectEvents, testContext, testRequest } from './anthropic-test-kit.js';
import { newAdapter, upstream, useFakeAnthropic } from './anthropic-fixture.js';

useFakeAnthropic();

/** Runs one request against the fake and returns the recorded request and the produced events. */
async function send(request: ChatRequest, overrides: Partial<ProviderConfig> = {}) {
  const adapter = newAdapter(overrides);
  upstream.enqueue({ type: 'message', content: [{ type: 'text', text: 'ok' }] });
  const before = upstream.requests.length;
  const events = await collectEvents(await adapter.stream(request, testContext()));
  const recorded = upstream.requests[before];
  if (!recorded) throw new Error('the fake upstream saw no request');
  return { recorded, body: recorded.body as Record<string, unknown>, events };
}

function warningsOf(events: StreamEvent[]) {
  const start = events[0];
  if (start?.type !== 'response-start') throw new Error(`expected response-start, got ${start?.type}`);
  return start.warnings;
}

describe('anthropic request body', () => {
  it('posts a streaming Messages request with hoisted system text and merged turns', async () => {
    const { recorded, body, events } = await send(
      testRequest({
        messages: [
          { role: 'system', content: 'You are terse.' },
          { role: 'user', content: [{ type: 'text', text: 'one' }] },
          { role: 'user', content: [{ type: 'text', text: 'two' }] },
          { role: 'system', content: 'Answer in French.' },
          { role: 'assistant', content: [{ type: 'text', text: 'un' }] },
          { role: 'assistant', content: [{ type: 'text', text: 'deux' }] },
          { role: 'user', content: [{ type: 'text', text: 'three' }] },
        ],
      }),
    );
    expect(recorded.method).toBe('POST');
    expect(recorded.path).toBe('/v1/messages');
    expect(body).toEqual({
      model: 'claude-fake-1',
      max_tokens: 256,
      system: 'You are terse.\n\nAnswer in French.',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'one' },
            { type: 'text', text: 'two' },
          ],
        },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'un' },
            { type: 'text', text: 'deux' },
          ],
        },
        { role: 'user', content: [{ type: 'text', text: 'three' }] },
      ],
      stream: true,
    });
    expect(warningsOf(events)).toEqual([]);
  });

  it('replays tool calls, results and signed thinking with their ids', async () => {
    const { body, events } = await send(
      testRequest({
        tools: [
          { name: 'get_weather', description: 'Weather by city', parameters: { type: 'object', properties: { city: { type: 'string' } } } },
        ],
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'Weather in Paris and Rome?' }] },
          {
            role: 'assistant',
            content: [
              { type: 'reasoning', text: 'Two cities.', signature: 'c2lnLTE=' },
              { type: 'reasoning', text: 'unsigned reasoning from elsewhere' },
              { type: 'text', text: 'Checking.' },
              { type: 'tool-call', id: 'toolu_01', name: 'get_weather', arguments: '{"city":"Paris"}' },
              { type: 'tool-call', id: 'toolu_02', name: 'get_weather', arguments: '{"city":"Rome"}' },
            ],
          },
          { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'toolu_01', output: '18C' }] },
          { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'toolu_02', output: 'city not found', isError: true }] },
          { role: 'user', content: [{ type: 'text', text: 'Thanks!' }] },
        ],
      }),
    );
    expect(body.tools).toEqual([
      { name: 'get_weather', description: 'Weather by city', input_schema: { type: 'object', properties: { city: { type: 'string' } } } },
    ]);
    expect(body.tool_choice).toBeUndefined();
    expect(body.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Weather in Paris and Rome?' }] },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'Two cities.', signature: 'c2lnLTE=' },
          { type: 'text', text: 'Checking.' },
          { type: 'tool_use', id: 'toolu_01', name: 'get_weather', input: { city: 'Paris' } },
          { type: 'tool_use', id: 'toolu_02', name: 'get_weather', input: { city: 'Rome' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_01', content: '18C' },
          { type: 'tool_result', tool_use_id: 'toolu_02', content: 'city not found', is_error: true },
          { type: 'text', text: 'Thanks!' },
        ],
      },
    ]);
    expect(warningsOf(events)).toEqual([]);
  });

  it("re-spells ids outside Anthropic's pattern, alike in the call and its result", async () => {
    // Kimi K2's own ids (functions.NAME:IDX), as the prompted lane returns them; Anthropic refuses any id
    // outside ^[a-zA-Z0-9_-]+$ with a 400.
    const { body } = await send(
      testRequest({
        tools: [{ name: 'get_weather', parameters: { type: 'object' } }],
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'Weather in Paris and Rome?' }] },
          {
            role: 'assistant',
            content: [
              { type: 'tool-call', id: 'functions.get_weather:0', name: 'get_weather', arguments: '{"city":"Paris"}' },
              { type: 'tool-call', id: 'functions.get_weather:1', name: 'get_weather', arguments: '{"city":"Rome"}' },
            ],
          },
          {
            role: 'tool',
            content: [
              { type: 'tool-result', toolCallId: 'functions.get_weather:1', output: '21C' },
              { type: 'tool-result', toolCallId: 'functions.get_weather:0', output: '18C' },
            ],
          },
        ],
      }),
    );
    const [, calls, results] = body.messages as { content: { id?: string; tool_use_id?: string }[] }[];
    const callIds = calls?.content.map((block) => block.id) ?? [];
    expect(callIds.every((id) => /^[a-zA-Z0-9_-]+$/.test(id ?? ''))).toBe(true);
    expect(new Set(callIds).size).toBe(2);
    expect(results?.content.map((block) => block.tool_use_id)).toEqual([callIds[1], callIds[0]]);
  });

  it('puts tool results before user text even when the text came first', async () => {
    const { body } = await send(
      testRequest({
        messages: [
          { role: 'assistant', content: [{ type: 'tool-call', id: 'toolu_9', name: 'run', arguments: '' }] },
          { role: 'user', content: [{ type: 'text', text: 'note' }] },
          { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'toolu_9', output: '' }] },
        ],
      }),
    );
    expect(body.messages).toEqual([
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_9', name: 'run', input: {} }] },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_9' },
          { type: 'text', text: 'note' },
        ],
      },
    ]);
  });

  it('sends unreadable tool arguments as {} with a warning', async () => {
    const { body, events } = await send(
      testRequest({
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'go' }] },
          { role: 'assistant', content: [{ type: 'tool-call', id: 'toolu_x', name: 'run', arguments: '{"command": ' }] },
          { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'toolu_x', output: 'done' }] },
        ],
      }),
    );
    expect((body.messages as { content: unknown[] }[])[1]?.content).toEqual([{ type: 'tool_use', id: 'toolu_x', name: 'run', input: {} }]);
    expect(warningsOf(events)).toEqual([{ code: 'invalid-tool-arguments', message: expect.stringContaining('toolu_x') }]);
  });

  it.each([
    [{ type: 'auto' } as const, undefined, { type: 'auto' }],
    [{ type: 'required' } as const, undefined, { type: 'any' }],
    [{ type: 'tool', name: 'get_weather' } as const, undefined, { type: 'tool', name: 'get_weather' }],
    [{ type: 'none' } as const, undefined, { type: 'none' }],
    [undefined, false, { type: 'auto', disable_parallel_tool_use: true }],
    [{ type: 'required' } as const, false, { type: 'any', disable_parallel_tool_use: true }],
    [{ type: 'tool', name: 'get_weather' } as const, false, { type: 'tool', name: 'get_weather', disable_parallel_tool_use: true }],
    [undefined, true, undefined],
  ])('maps tool choice %j with parallelToolCalls %j', async (toolChoice, parallelToolCalls, expected) => {
    const { body } = await send(
      testRequest({ tools: [{ name: 'get_weather', parameters: { type: 'object' } }], toolChoice, parallelToolCalls }),
    );
    expect(body.tool_choice).toEqual(expected);
    expect(body.tools).toEqual([{ name: 'get_weather', input_schema: { type: 'object' } }]);
  });

  it('sends no tool_choice without tools', async () => {
    const { body } = await send(testRequest({ toolChoice: { type: 'required' }, parallelToolCalls: false }));
    expect(body).not.toHaveProperty('tool_choice');
    expect(body).not.toHaveProperty('tools');
  });

  it('defaults max_tokens from the provider config, then 4096, with a warning', async () => {
    const fromConfig = await send(testRequest({ maxOutputTokens: undefined }), { defaultMaxTokens: 1000 });
    expect(fromConfig.body.max_tokens).toBe(1000);
    expect(warningsOf(fromConfig.events)).toEqual([
      { code: 'max-tokens-defaulted', message: expect.stringMatching(/used 1000 \(defaultMaxTokens of provider 'claude'\)/) },
    ]);
    const fallback = await send(testRequest({ maxOutputTokens: null }));
    expect(fallback.body.max_tokens).toBe(4096);
    expect(warningsOf(fallback.events)).toEqual([{ code: 'max-tokens-defaulted', message: expect.stringContaining('used 4096') }]);
  });

  it('forwards generation options exactly, including zero, and omits nulls', async () => {
    const given = await send(testRequest({ temperature: 0, topP: 0.5, stop: ['END'], user: 'user-7', maxOutputTokens: 0 }));
    expect(given.body).toMatchObject({
      max_tokens: 0,
      temperature: 0,
      top_p: 0.5,
      stop_sequences: ['END'],
      metadata: { user_id: 'user-7' },
    });
    const nulls = await send(testRequest({ temperature: null, topP: null, stop: null, user: null, seed: null, reasoningEffort: null }));
    for (const key of ['temperature', 'top_p', 'stop_sequences', 'metadata']) expect(nulls.body).not.toHaveProperty(key);
    expect(warningsOf(nulls.events)).toEqual([]);
  });

  it('turns unsupported parameters and OpenAI extras into warnings, never errors', async () => {
    const { body, events } = await send(
      testRequest({
        seed: 7,
        presencePenalty: 0,
        frequencyPenalty: 0.5,
        responseFormat: { type: 'json_object' },
        openaiExtras: { logit_bias: { 42: 1 }, store: false },
      }),
    );
    expect(Object.keys(body).sort()).toEqual(['max_tokens', 'messages', 'model', 'stream']);
    const warnings = warningsOf(events);
    expect(warnings.every((warning) => warning.code === 'unsupported-parameter')).toBe(true);
    const named = warnings.map((warning) => /Parameter '([^']+)'/.exec(warning.message)?.[1]);
    // json_object has no Anthropic form: the pipeline checks the reply instead (check-response-format.ts).
    expect(named).toEqual(['seed', 'presence_penalty', 'frequency_penalty', 'logit_bias', 'store']);
  });

  it('sends a json_schema response format as structured outputs (output_config.format)', async () => {
    const schema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false };
    const { body, events } = await send(testRequest({ responseFormat: { type: 'json_schema', name: 'place', schema, strict: true } }));
    expect(body.output_config).toEqual({ format: { type: 'json_schema', schema } });
    expect(warningsOf(events)).toEqual([]);
  });

  it('maps reasoning_effort to an extended-thinking budget below max_tokens, or warns when it cannot apply', async () => {
    const high = await send(testRequest({ reasoningEffort: 'high', maxOutputTokens: 32000 }));
    expect(high.body.thinking).toEqual({ type: 'enabled', budget_tokens: 16384 });
    const squeezed = await send(testRequest({ reasoningEffort: 'high', maxOutputTokens: 2000 }));
    expect(squeezed.body.thinking).toEqual({ type: 'enabled', budget_tokens: 1999 });
    const tooSmall = await send(testRequest({ reasoningEffort: 'low', maxOutputTokens: 800 }));
    expect(tooSmall.body).not.toHaveProperty('thinking');
    expect(
      warningsOf(tooSmall.events)
        .map((warning) => warning.message)
        .join(' '),
    ).toContain('reasoning_effort');
    const withTemperature = await send(testRequest({ reasoningEffort: 'medium', maxOutputTokens: 8000, temperature: 0.2 }));
    expect(withTemperature.body).not.toHaveProperty('thinking');
    expect(withTemperature.body.temperature).toBe(0.2);
    const none = await send(testRequest({ reasoningEffort: 'minimal', maxOutputTokens: 8000 }));
    expect(none.body).not.toHaveProperty('thinking');
  });

  it('gives Claude 4.6 and later adaptive thinking with the effort, which the newest refuse as a budget', async () => {
    const opus47 = { ...testRequest().model, model: 'claude-opus-4-7' };
    const schema = { type: 'object', properties: { city: { type: 'string' } } };
    const adaptive = await send(
      testRequest({ model: opus47, reasoningEffort: 'medium', responseFormat: { type: 'json_schema', name: 'place', schema } }),
    );
    expect(adaptive.body.thinking).toEqual({ type: 'adaptive' });
    expect(adaptive.body.output_config).toEqual({
      format: { type: 'json_schema', schema: { ...schema, additionalProperties: false } },
      effort: 'medium',
    });
    expect(adaptive.body.max_tokens).toBe(256);
    expect(warningsOf(adaptive.events)).toEqual([]);
    const forced = await send(
      testRequest({
        model: opus47,
        reasoningEffort: 'high',
        tools: [{ name: 'get_weather', parameters: { type: 'object', properties: {} } }],
        toolChoice: { type: 'required' },
      }),
    );
    expect(forced.body).not.toHaveProperty('thinking');
    expect(forced.body).not.toHaveProperty('output_config');
    expect(
      warningsOf(forced.events)
        .map((warning) => warning.message)
        .join(' '),
    ).toContain('forces a tool call');
  });

  it("passes a Messages client's adaptive thinking and effort as given, and gives an older Claude a budget instead", async () => {
    const sonnet46 = { ...testRequest().model, model: 'claude-sonnet-4-6' };
    const given = await send(testRequest({ model: sonnet46, claudeThinking: { adaptive: true, effort: 'max' }, maxOutputTokens: 32000 }));
    expect(given.body.thinking).toEqual({ type: 'adaptive' });
    expect(given.body.output_config).toEqual({ effort: 'max' });
    const effortOnly = await send(testRequest({ model: sonnet46, claudeThinking: { adaptive: false, effort: 'low' } }));
    expect(effortOnly.body).not.toHaveProperty('thinking');
    expect(effortOnly.body.output_config).toEqual({ effort: 'low' });
    const older = await send(testRequest({ claudeThinking: { adaptive: true }, maxOutputTokens: 32000 }));
    expect(older.body.thinking).toEqual({ type: 'enabled', budget_tokens: 16384 });
    expect(older.body).not.toHaveProperty('output_config');
  });

  it('sends a Claude model the sampling fields its version takes, and names the rest in a warning', async () => {
    const model = (name: string) => ({ ...testRequest().model, model: name });
    const opus47 = await send(testRequest({ model: model('claude-opus-4-7'), temperature: 0.2, topP: 0.9, openaiExtras: { top_k: 5 } }));
    expect(opus47.body).not.toHaveProperty('temperature');
    expect(opus47.body).not.toHaveProperty('top_p');
    expect(opus47.body).not.toHaveProperty('top_k');
    expect(
      warningsOf(opus47.events)
        .map((warning) => warning.message)
        .join(' '),
    ).toContain('temperature, top_p, top_k not sent');
    const sonnet45 = await send(testRequest({ model: model('claude-sonnet-4-5'), temperature: 0.2, topP: 0.9 }));
    expect(sonnet45.body).toMatchObject({ temperature: 0.2 });
    expect(sonnet45.body).not.toHaveProperty('top_p');
    expect(
      warningsOf(sonnet45.events)
        .map((warning) => warning.message)
        .join(' '),
    ).toContain('top_p not sent');
    const topPAlone = await send(testRequest({ model: model('claude-sonnet-4-5'), topP: 0.9 }));
    expect(topPAlone.body).toMatchObject({ top_p: 0.9 });
    const haiku35 = await send(testRequest({ model: model('claude-3-5-haiku-latest'), temperature: 0.2, topP: 0.9 }));
    expect(haiku35.body).toMatchObject({ temperature: 0.2, top_p: 0.9 });
    expect(warningsOf(haiku35.events)).toEqual([]);
  });

  it('thinks on Claude Opus 4.7 though the client set a temperature, which that model does not take', async () => {
    const opus47 = { ...testRequest().model, model: 'claude-opus-4-7' };
    const { body } = await send(testRequest({ model: opus47, reasoningEffort: 'low', temperature: 0.3 }));
    expect(body.thinking).toEqual({ type: 'adaptive' });
    expect(body).not.toHaveProperty('temperature');
  });

  it('warns about an effort named like an Object.prototype member instead of sending a NaN budget', async () => {
    for (const effort of ['constructor', 'toString', '__proto__']) {
      const { body, events } = await send(testRequest({ reasoningEffort: effort, maxOutputTokens: 8000 }));
      expect(body).not.toHaveProperty('thinking');
      expect(
        warningsOf(events)
          .map((warning) => warning.message)
          .join(' '),
      ).toContain('unknown effort');
    }
  });

  it('puts the thinking budget on top of a defaulted max_tokens, so the answer keeps its share', async () => {
    const { body, events } = await send(testRequest({ reasoningEffort: 'medium', maxOutputTokens: undefined }));
    expect(body.thinking).toEqual({ type: 'enabled', budget_tokens: 4096 });
    expect(body.max_tokens).toBe(4096 + 4096);
    expect(warningsOf(events)).toEqual([{ code: 'max-tokens-defaulted', message: expect.stringContaining('max_tokens 8192') }]);
  });

  describe('reasoning_effort where Anthropic would reject thinking', () => {
    const weatherTool = {
      name: 'get_weather',
      description: 'Weather by city',
      parameters: { type: 'object', properties: { city: { type: 'string' } } },
    };
    const call = { type: 'tool-call' as const, id: 'toolu_01', name: 'get_weather', arguments: '{"city":"Paris"}' };
    const question = { role: 'user' as const, content: [{ type: 'text' as const, text: 'Weather in Paris?' }] };
    const result = { role: 'tool' as const, content: [{ type: 'tool-result' as const, toolCallId: 'toolu_01', output: '18C' }] };
    const thinkingRequest = (overrides: Partial<ChatRequest>) =>
      testRequest({ reasoningEffort: 'medium', maxOutputTokens: 8000, tools: [weatherTool], ...overrides });
    const warned = (events: StreamEvent[]) =>
      warningsOf(events)
        .map((warning) => warning.message)
        .join(' ');

    it('goes without thinking, with a warning, when tool_choice forces a call', async () => {
      for (const toolChoice of [{ type: 'required' as const }, { type: 'tool' as const, name: 'get_weather' }]) {
        const { body, events } = await send(thinkingRequest({ toolChoice }));
        expect(body).not.toHaveProperty('thinking');
        expect(warned(events)).toContain('forces a tool call');
      }
      const auto = await send(thinkingRequest({ toolChoice: { type: 'auto' } }));
      expect(auto.body.thinking).toEqual({ type: 'enabled', budget_tokens: 4096 });
    });

    it('goes without thinking, with a warning, in a tool loop whose last call came without its signed thinking', async () => {
      const { body, events } = await send(
        thinkingRequest({ messages: [question, { role: 'assistant', content: [{ type: 'text', text: 'Checking.' }, call] }, result] }),
      );
      expect(body).not.toHaveProperty('thinking');
      expect(warned(events)).toContain('signed thinking block');
    });

    it('keeps thinking when the last call comes back with its signed thinking, or when no call is pending', async () => {
      const signed = await send(
        thinkingRequest({
          messages: [
            question,
            { role: 'assistant', content: [{ type: 'reasoning', text: 'One city.', signature: 'c2lnLTE=' }, call] },
            result,
          ],
        }),
      );
      expect(signed.body.thinking).toEqual({ type: 'enabled', budget_tokens: 4096 });
      const finished = await send(
        thinkingRequest({
          messages: [
            question,
            { role: 'assistant', content: [call] },
            result,
            { role: 'assistant', content: [{ type: 'text', text: 'It is 18C.' }] },
            { role: 'user', content: [{ type: 'text', text: 'And tomorrow?' }] },
          ],
        }),
      );
      expect(finished.body.thinking).toEqual({ type: 'enabled', budget_tokens: 4096 });
      expect(warningsOf(finished.events)).toEqual([]);
    });
  });

  it('converts images and PDFs, and leaves out other files with a warning', async () => {
    const { body, events } = await send(
      testRequest({
        messages: [
          {
            role: 'user',
            content: [
              { type: 'file', mediaType: 'image/png', data: 'data:image/png;base64,iVBORw0KGgo=' },
              { type: 'file', mediaType: 'image/jpeg', data: 'https://example.com/cat.jpg' },
              { type: 'file', mediaType: 'application/pdf', data: 'JVBERi0xLjQ=', filename: 'report.pdf' },
              { type: 'file', mediaType: 'audio/wav', data: 'UklGRg==' },
              { type: 'text', text: 'Describe these.' },
            ],
          },
        ],
      }),
    );
    expect(body.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
          { type: 'image', source: { type: 'url', url: 'https://example.com/cat.jpg' } },
          { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0xLjQ=' }, title: 'report.pdf' },
          { type: 'text', text: 'Describe these.' },
        ],
      },
    ]);
    expect(warningsOf(events)).toEqual([{ code: 'unsupported-content', message: expect.stringContaining('audio/wav') }]);
  });

  it('sends auth, version, betas and configured headers to the host root', async () => {
    const { recorded } = await send(testRequest({ forwardHeaders: { 'anthropic-beta': 'interleaved-thinking-2025-05-14' } }), {
      baseUrl: `${upstream.url}/`,
      headers: { 'X-Team': 'blue', 'anthropic-beta': 'files-api-2025-04-14' },
    });
    expect(recorded.path).toBe('/v1/messages');
    expect(recorded.headers).toMatchObject({
      'x-api-key': 'sk-ant-test',
      'anthropic-version': '2023-06-01',
      'anthropic-beta': 'files-api-2025-04-14,interleaved-thinking-2025-05-14',
      'x-team': 'blue',
      'content-type': 'application/json',
    });
    expect(recorded.headers).not.toHaveProperty('authorization');
  });

  it('uses the client anthropic-version and sends no key when none is configured', async () => {
    const { recorded } = await send(testRequest({ forwardHeaders: { 'Anthropic-Version': '2024-01-01' } }), { apiKey: undefined });
    expect(recorded.headers['anthropic-version']).toBe('2024-01-01');
    expect(recorded.headers).not.toHaveProperty('x-api-key');
    expect(recorded.headers).not.toHaveProperty('anthropic-beta');
  });
});
