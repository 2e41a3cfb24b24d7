/** POST /v1/messages with stream: true: the exact Anthropic event sequence, from every kind of upstream. */
import { describe, expect, it } from 'vitest';
import {
  accumulate,
  anthropicEvents,
  eventSequence,
  messagesBody,
  post,
  providers,
  startMessagesKit,
  useMessagesKit,
} from './messages-test-kit.js';

const messagesKit = useMessagesKit();

const tools = [
  {
    name: 'get_weather',
    description: 'Weather for a city',
    input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  },
  { name: 'get_time', input_schema: { type: 'object', properties: { timezone: { type: 'string' } } } },
];

const weatherInput = { city: 'Paris, "Île-de-France"', unit: 'c' };
const timeInput = { timezone: 'Europe/Paris' };

describe('streamed text', () => {
  it('from an OpenAI-compatible upstream: message_start, ping, one text block, message_delta, message_stop', async () => {
    messagesKit.kit.openai.enqueue({
      type: 'chat',
      content: ['Hello', ' ', 'world', '\n'],
      usage: { prompt_tokens: 21, completion_tokens: 8 },
    });
    const response = await post(messagesKit.url, messagesBody(`${providers.openai}/Qwen/Qwen3-8B`, { stream: true }));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(response.headers.get('x-tool-calling')).toBe('native');
    expect(response.headers.get('x-request-id')).toMatch(/^req_/);
    const events = anthropicEvents(response.text);
    expect(eventSequence(events)).toEqual([
      'message_start',
      'ping',
      'start text #0',
      'text_delta #0',
      'text_delta #0',
      'text_delta #0',
      'text_delta #0',
      'stop #0',
      'message_delta',
      'message_stop',
    ]);
    const start = events[0]?.message as Record<string, unknown>;
    expect(start).toMatchObject({
      type: 'message',
      role: 'assistant',
      model: `${providers.openai}/Qwen/Qwen3-8B`,
      content: [],
      stop_reason: null,
      stop_sequence: null,
    });
    expect(start.id).toMatch(/^msg_[0-9a-f]{24}$/);
    expect(events[2]).toEqual({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } });
    // Whitespace-only deltas are content.
    expect(events.slice(3, 7).map((event) => (event.delta as Record<string, string>).text)).toEqual(['Hello', ' ', 'world', '\n']);
    expect(events.at(-2)).toEqual({
      type: 'message_delta',
      delta: { stop_reason: 'end_turn', stop_sequence: null },
      usage: { input_tokens: 21, output_tokens: 8 },
    });
    expect(events.at(-1)).toEqual({ type: 'message_stop' });
  });

  it('from Ollama, with the length stop mapped to max_tokens', async () => {
    messagesKit.kit.ollama.enqueue({ type: 'chat', content: 'cut off', doneReason: 'length', promptEvalCount: 5, evalCount: 2 });
    const response = await post(messagesKit.url, messagesBody(`${providers.ollama}/llama3.1:8b`, { stream: true }));
    const result = accumulate(anthropicEvents(response.text));
    expect(result.content).toEqual([{ type: 'text', text: 'cut off' }]);
    expect(result.stopReason).toBe('max_tokens');
    expect(result.usage).toEqual({ input_tokens: 5, output_tokens: 2 });
  });
});

describe('thinking', () => {
  it('an Anthropic thinking block keeps its signature: thinking_delta…, signature_delta, then the text block', async () => {
    messagesKit.kit.anthropic.enqueue({
      type: 'message',
      content: [
        { type: 'thinking', thinking: 'Let me think.', signature: 'ZmFrZXNpZw==' },
        { type: 'text', text: 'Done.' },
      ],
      usage: { input_tokens: 50, output_tokens: 12, cache_read_input_tokens: 30 },
      fragmentSize: 5,
    });
    const response = await post(
      messagesKit.url,
      messagesBody(`${providers.anthropic}/claude-sonnet-4-5`, { stream: true, thinking: { type: 'enabled', budget_tokens: 2048 } }),
    );
    const events = anthropicEvents(response.text);
    expect(eventSequence(events)).toEqual([
      'message_start',
      'ping',
      'start thinking #0',
      'thinking_delta #0',
      'thinking_delta #0',
      'thinking_delta #0',
      'signature_delta #0',
      'stop #0',
      'start text #1',
      'text_delta #1',
      'stop #1',
      'message_delta',
      'message_stop',
    ]);
    expect(events[2]).toEqual({ type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } });
    const result = accumulate(events);
    expect(result.content).toEqual([
      { type: 'thinking', thinking: 'Let me think.', signature: 'ZmFrZXNpZw==' },
      { type: 'text', text: 'Done.' },
    ]);
    // Cache reads and writes are counted apart from input_tokens, as Anthropic does; cost_usd is the gateway's extension.
    expect(result.usage).toEqual({
      input_tokens: 50,
      output_tokens: 12,
      cache_read_input_tokens: 30,
      cache_creation_input_tokens: 0,
      cost_usd: expect.any(Number) as number,
    });
  });

  it('reasoning from an OpenAI-compatible server becomes a thinking block without a signature', async () => {
    messagesKit.kit.openai.enqueue({ type: 'chat', reasoning: 'Hmm, 2+2.', content: '4' });
    const response = await post(messagesKit.url, messagesBody(`${providers.openai}/Qwen/Qwen3-8B`, { stream: true }));
    const result = accumulate(anthropicEvents(response.text));
    expect(result.content).toEqual([
      { type: 'thinking', thinking: 'Hmm, 2+2.', signature: '' },
      { type: 'text', text: '4' },
    ]);
  });
});

describe('parallel tool_use blocks', () => {
  it('from Anthropic: text, then two tool_use blocks whose input_json_delta fragments reassemble to the exact inputs', async () => {
    messagesKit.kit.anthropic.enqueue({
      type: 'message',
      content: [
        { type: 'text', text: 'Checking.' },
        { type: 'tool_use', id: 'toolu_01A', name: 'get_weather', input: weatherInput },
        { type: 'tool_use', id: 'toolu_01B', name: 'get_time', input: timeInput },
      ],
      fragmentSize: 4,
    });
    const response = await post(messagesKit.url, messagesBody(`${providers.anthropic}/claude-sonnet-4-5`, { stream: true, tools }));
    const events = anthropicEvents(response.text);
    const sequence = eventSequence(events);
    expect(sequence.filter((entry) => !entry.startsWith('input_json_delta') && !entry.startsWith('text_delta'))).toEqual([
      'message_start',
      'ping',
      'start text #0',
      'stop #0',
      'start tool_use #1',
      'stop #1',
      'start tool_use #2',
      'stop #2',
      'message_delta',
      'message_stop',
    ]);
    expect(events.find((event) => event.type === 'content_block_start' && event.index === 1)).toEqual({
      type: 'content_block_start',
      index: 1,
      content_block: { type: 'tool_use', id: 'toolu_01A', name: 'get_weather', input: {} },
    });
    expect(sequence.filter((entry) => entry === 'input_json_delta #1').length).toBeGreaterThan(3);
    const result = accumulate(events);
    expect(result.content).toEqual([
      { type: 'text', text: 'Checking.' },
      { type: 'tool_use', id: 'toolu_01A', name: 'get_weather', input: weatherInput },
      { type: 'tool_use', id: 'toolu_01B', name: 'get_time', input: timeInput },
    ]);
    expect(result.stopReason).toBe('tool_use');
  });

  it('from an OpenAI-compatible server whose parallel call fragments interleave: each block still streams whole, in order', async () => {
    const calls = [
      { id: 'call_w', name: 'get_weather', arguments: weatherInput },
      { id: 'call_t', name: 'get_time', arguments: timeInput },
    ];
    messagesKit.kit.openai.enqueue({ type: 'chat', toolCalls: calls, fragmentSize: 2, quirks: ['interleaved-calls'] });
    const response = await post(messagesKit.url, messagesBody(`${providers.openai}/Qwen/Qwen3-8B`, { stream: true, tools }));
    const events = anthropicEvents(response.text);
    const sequence = eventSequence(events);
    // Blocks never overlap: #1 only starts after #0 stopped.
    expect(sequence.indexOf('start tool_use #1')).toBeGreaterThan(sequence.indexOf('stop #0'));
    expect(sequence.lastIndexOf('input_json_delta #0')).toBeLessThan(sequence.indexOf('stop #0'));
    expect(accumulate(events).content).toEqual([
      { type: 'tool_use', id: 'call_w', name: 'get_weather', input: weatherInput },
      { type: 'tool_use', id: 'call_t', name: 'get_time', input: timeInput },
    ]);
    expect(accumulate(events).stopReason).toBe('tool_use');
  });

  it('from Ollama (calls arrive whole): one input_json_delta per block with the whole input', async () => {
    messagesKit.kit.ollama.enqueue({
      type: 'chat',
      toolCalls: [
        { name: 'get_weather', arguments: weatherInput },
        { name: 'get_time', arguments: timeInput },
      ],
    });
    const response = await post(messagesKit.url, messagesBody(`${providers.ollama}/llama3.1:8b`, { stream: true, tools }));
    const result = accumulate(anthropicEvents(response.text));
    expect(result.content.map((block) => [block.type, block.name, block.input])).toEqual([
      ['tool_use', 'get_weather', weatherInput],
      ['tool_use', 'get_time', timeInput],
    ]);
    for (const block of result.content) expect(typeof block.id === 'string' && block.id !== '').toBe(true);
  });
});

describe('mid-stream failure', () => {
  it('an upstream overloaded error after some text becomes one event: error frame, then the stream closes', async () => {
    messagesKit.kit.anthropic.enqueue({
      type: 'message',
      content: [{ type: 'text', text: 'Partial answer here' }],
      interruption: { type: 'error-event', afterEvents: 5, errorType: 'overloaded_error', message: 'Overloaded' },
    });
    const response = await post(messagesKit.url, messagesBody(`${providers.anthropic}/claude-sonnet-4-5`, { stream: true }));
    expect(response.status).toBe(200);
    const events = anthropicEvents(response.text);
    const last = events.at(-1) as Record<string, unknown>;
    expect(last.type).toBe('error');
    expect(last.error).toMatchObject({ type: 'overloaded_error' });
    expect(String((last.error as Record<string, unknown>).message)).toContain('Overloaded');
    expect(events.filter((event) => event.type === 'error')).toHaveLength(1);
    expect(events.some((event) => event.type === 'message_stop' || event.type === 'message_delta')).toBe(false);
  });

  it('an OpenAI-compatible server that cuts the connection mid-stream ends with an api_error event', async () => {
    messagesKit.kit.openai.enqueue({ type: 'chat', content: 'abcdefghij', cutAfterChunks: 3 });
    const response = await post(messagesKit.url, messagesBody(`${providers.openai}/Qwen/Qwen3-8B`, { stream: true }));
    const events = anthropicEvents(response.text);
    expect(events.at(-1)).toMatchObject({ type: 'error', error: { type: 'api_error' } });
    expect(eventSequence(events).slice(0, 3)).toEqual(['message_start', 'ping', 'start text #0']);
  });
});

describe('cancellation', () => {
  // A messagesKit.kit of its own: on a gateway that already served a stream on the same keep-alive connection,
  // close() after an aborted stream takes ~4 s (seen on /v1/chat/completions too; reported).
  it('a client that goes away mid-stream aborts the upstream request', async () => {
    const own = await startMessagesKit();
    try {
      own.openai.enqueue({ type: 'chat', content: 'abcdefghijkl', holdAfterChunks: 3 });
      const upstreamRequest = own.openai.nextRequest();
      const controller = new AbortController();
      const response = await fetch(`${own.gateway.baseUrl}/v1/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(messagesBody(`${providers.openai}/Qwen/Qwen3-8B`, { stream: true })),
        signal: controller.signal,
      });
      const reader = (response.body as ReadableStream<Uint8Array>).getReader();
      let received = '';
      while (!received.includes('text_delta')) received += new TextDecoder().decode((await reader.read()).value);
      controller.abort();
      await own.openai.waitForAbort(await upstreamRequest);
    } finally {
      await own.close();
    }
  });
});
