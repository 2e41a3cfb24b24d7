/**
 * Neutral ChatRequest → OpenAI Chat Completions body: messages, tools, and options sent only when given;
 * serialised with a known tool list's JSON spliced in, byte for byte JSON.stringify's output.
 */
import { describe, expect, it } from 'vitest';
import type { ChatRequest } from '../../../src/core/chat-request.js';
import { RequestCaches } from '../../../src/core/request-caches.js';
import { shareToolList } from '../../../src/core/shared-tool-list.js';
import type { ResolvedModel } from '../../../src/core/resolved-model.js';
import type { ToolDefinition } from '../../../src/core/tool-definition.js';
import {
  buildOpenAiRequestBody,
  serializeOpenAiRequestBody,
  type OpenAiFlavour,
} from '../../../providers/openai/build-openai-request-body.js';

const model: ResolvedModel = {
  id: 'local/Qwen/Qwen3-8B',
  provider: 'local',
  providerType: 'openai-compatible',
  model: 'Qwen/Qwen3-8B',
  family: 'hermes',
  toolCalling: 'native',
};

function request(overrides: Partial<ChatRequest> = {}): ChatRequest {
  return { model, messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], ...overrides };
}

describe('buildOpenAiRequestBody', () => {
  it('sends the bare model id, always streams and always asks for usage', () => {
    expect(buildOpenAiRequestBody(request(), 'openai-compatible')).toEqual({
      model: 'Qwen/Qwen3-8B',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  it('sends only the options that were given, keeping 0, false and null', () => {
    const body = buildOpenAiRequestBody(
      request({
        temperature: 0,
        topP: null,
        seed: 0,
        presencePenalty: 0,
        frequencyPenalty: null,
        stop: [],
        user: null,
        reasoningEffort: 'minimal',
        maxOutputTokens: 0,
      }),
      'openai',
    );
    expect(body).toMatchObject({
      temperature: 0,
      top_p: null,
      seed: 0,
      presence_penalty: 0,
      frequency_penalty: null,
      stop: [],
      user: null,
      reasoning_effort: 'minimal',
      max_completion_tokens: 0,
    });
    expect(body).not.toHaveProperty('max_tokens');
    expect(buildOpenAiRequestBody(request({ maxOutputTokens: 5 }), 'openai-compatible')).toMatchObject({ max_tokens: 5 });
  });

  it('nests a json_schema response format under json_schema, and passes the others as they are', () => {
    expect(
      buildOpenAiRequestBody(
        request({ responseFormat: { type: 'json_schema', name: 'r', schema: { type: 'object' }, strict: true, description: 'd' } }),
        'openai',
      ).response_format,
    ).toEqual({
      type: 'json_schema',
      json_schema: { name: 'r', schema: { type: 'object' }, strict: true, description: 'd' },
    });
    expect(buildOpenAiRequestBody(request({ responseFormat: { type: 'json_object' } }), 'openai').response_format).toEqual({
      type: 'json_object',
    });
    expect(buildOpenAiRequestBody(request({ responseFormat: null }), 'openai').response_format).toBeNull();
  });

  it('sends tools, tool_choice and parallel_tool_calls only with tools', () => {
    const tools = [{ name: 'f', description: 'does f', parameters: { type: 'object' }, strict: null, whenToUse: 'prompt-only metadata' }];
    expect(
      buildOpenAiRequestBody(request({ tools, toolChoice: { type: 'tool', name: 'f' }, parallelToolCalls: false }), 'openai'),
    ).toMatchObject({
      tools: [{ type: 'function', function: { name: 'f', description: 'does f', parameters: { type: 'object' }, strict: null } }],
      tool_choice: { type: 'function', function: { name: 'f' } },
      parallel_tool_calls: false,
    });
    expect(JSON.stringify(buildOpenAiRequestBody(request({ tools }), 'openai'))).not.toContain('prompt-only metadata');
    const withoutTools = buildOpenAiRequestBody(request({ toolChoice: { type: 'none' }, parallelToolCalls: true }), 'openai');
    expect(withoutTools).not.toHaveProperty('tool_choice');
    expect(withoutTools).not.toHaveProperty('parallel_tool_calls');
  });

  it('forwards OpenAI-only extras verbatim but never lets them override what the gateway sets', () => {
    const body = buildOpenAiRequestBody(
      request({ openaiExtras: { logit_bias: { '1': -1 }, store: false, model: 'evil', stream: false } }),
      'openai',
    );
    expect(body).toMatchObject({ logit_bias: { '1': -1 }, store: false, model: 'Qwen/Qwen3-8B', stream: true });
  });

  it('converts every message kind', () => {
    const body = buildOpenAiRequestBody(
      request({
        messages: [
          { role: 'system', content: 'sys' },
          {
            role: 'user',
            content: [
              { type: 'text', text: 'look' },
              { type: 'file', mediaType: 'image/png', data: 'iVBORw0KGgo=', detail: 'low' },
              { type: 'file', mediaType: 'image/jpeg', data: 'https://example.org/cat.jpg' },
              { type: 'file', mediaType: 'audio/wav', data: 'UklGRg==' },
              { type: 'file', mediaType: 'application/pdf', data: 'JVBERi0=', filename: 'a.pdf' },
            ],
          },
          {
            role: 'assistant',
            content: [
              { type: 'reasoning', text: 'hidden thoughts' },
              { type: 'text', text: 'calling' },
              { type: 'tool-call', id: 'c1', name: 'f', arguments: '{"a":1}' },
              { type: 'tool-call', id: 'c2', name: 'g', arguments: '{}' },
            ],
          },
          {
            role: 'tool',
            content: [
              { type: 'tool-result', toolCallId: 'c1', output: 'one' },
              { type: 'tool-result', toolCallId: 'c2', output: 'two' },
            ],
          },
          { role: 'assistant', content: [{ type: 'tool-call', id: 'c3', name: 'f', arguments: '{}' }] },
        ],
      }),
      'openai',
    );
    expect(body.messages).toEqual([
      { role: 'system', content: 'sys' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'look' },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=', detail: 'low' } },
          { type: 'image_url', image_url: { url: 'https://example.org/cat.jpg' } },
          { type: 'input_audio', input_audio: { data: 'UklGRg==', format: 'wav' } },
          { type: 'file', file: { file_data: 'data:application/pdf;base64,JVBERi0=', filename: 'a.pdf' } },
        ],
      },
      {
        role: 'assistant',
        content: 'calling',
        tool_calls: [
          { id: 'c1', type: 'function', function: { name: 'f', arguments: '{"a":1}' } },
          { id: 'c2', type: 'function', function: { name: 'g', arguments: '{}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'c1', content: 'one' },
      { role: 'tool', tool_call_id: 'c2', content: 'two' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c3', type: 'function', function: { name: 'f', arguments: '{}' } }] },
    ]);
  });
});

/** The serialised body as text, whether it came back as a string or as UTF-8 bytes. */
/** One set for the file, as the app has one: a list's JSON is cached on its first request and spliced in on the next. */
const caches = new RequestCaches();

function serializedText(request: ChatRequest, flavour: OpenAiFlavour, options?: { stream: boolean }): string {
  const body = serializeOpenAiRequestBody(request, flavour, options, caches);
  return typeof body === 'string' ? body : body.toString('utf8');
}

describe('serializeOpenAiRequestBody', () => {
  const tools: ToolDefinition[] = [
    {
      name: 'f',
      description: 'does "f" — with ünïcode and a \\ backslash',
      parameters: { type: 'object', properties: { a: { type: 'string' } } },
      strict: true,
      whenToUse: 'prompt only',
    },
    { name: 'g', parameters: {}, strict: null, examples: [{ arguments: { a: 1 } }] },
    { name: 'h', parameters: { type: 'object' } },
  ];
  const known = shareToolList(structuredClone(tools));

  const variants: [string, Partial<ChatRequest>][] = [
    ['tools only', {}],
    ['tool_choice and parallel_tool_calls', { toolChoice: { type: 'tool', name: 'g' }, parallelToolCalls: false }],
    [
      'every option and OpenAI extras',
      {
        toolChoice: { type: 'required' },
        parallelToolCalls: null,
        temperature: 0,
        topP: null,
        stop: ['x'],
        seed: 0,
        maxOutputTokens: 9,
        presencePenalty: 0,
        frequencyPenalty: null,
        responseFormat: { type: 'json_schema', name: 'r', schema: {} },
        reasoningEffort: 'low',
        user: 'u',
        openaiExtras: { logit_bias: { '50256': -100 }, store: false, metadata: { tools: 'not the tools' } },
      },
    ],
    ['an extra that would collide with a gateway field', { openaiExtras: { model: 'evil', stream: false, '0': 'integer-like' } }],
  ];
  const flavours: OpenAiFlavour[] = ['openai', 'openai-compatible'];

  it.each(variants)('with a known tool list is byte for byte JSON.stringify(buildOpenAiRequestBody(…)): %s', (_title, overrides) => {
    for (const flavour of flavours) {
      for (const stream of [true, false]) {
        const expected = JSON.stringify(buildOpenAiRequestBody(request({ tools, ...overrides }), flavour, { stream }));
        expect(serializedText(request({ tools: known, ...overrides }), flavour, { stream })).toBe(expected);
        // The second time the list's JSON comes from the cache.
        expect(serializedText(request({ tools: known, ...overrides }), flavour, { stream })).toBe(expected);
      }
    }
  });

  it('splices long message texts (a system prompt carrying rendered tools) in byte for byte, on every turn', () => {
    const prompt = `Be terse.\n\n<tools>\n${tools
      .map((tool) => JSON.stringify(tool))
      .join('\n')
      .repeat(80)}\n</tools> \ud800 \u2028`;
    const messages: ChatRequest['messages'] = [
      { role: 'system', content: prompt },
      { role: 'user', content: [{ type: 'text', text: `a long paste: ${'"quoted" '.repeat(600)}` }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'x'.repeat(5000) },
          { type: 'tool-call', id: 'c1', name: 'f', arguments: '{}' },
        ],
      },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', output: 'y'.repeat(5000) }] },
    ];
    for (let turn = 0; turn < 2; turn++) {
      for (const withTools of [tools, known, undefined]) {
        const built = request({ messages: structuredClone(messages), ...(withTools ? { tools: withTools } : {}) });
        expect(serializedText(built, 'openai-compatible')).toBe(JSON.stringify(buildOpenAiRequestBody(built, 'openai-compatible')));
      }
    }
  });

  it('serialises lists that are not known, and requests without tools, as JSON.stringify does', () => {
    expect(serializedText(request({ tools }), 'openai')).toBe(JSON.stringify(buildOpenAiRequestBody(request({ tools }), 'openai')));
    expect(serializedText(request({ tools: shareToolList([]) }), 'openai')).toBe(
      JSON.stringify(buildOpenAiRequestBody(request(), 'openai')),
    );
    expect(serializedText(request(), 'openai-compatible', { stream: false })).toBe(
      JSON.stringify(buildOpenAiRequestBody(request(), 'openai-compatible', { stream: false })),
    );
  });
});
