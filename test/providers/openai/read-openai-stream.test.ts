/** OpenAI stream chunks → neutral events: text, reasoning, tool calls, finish, usage, errors and aborts. */
import { cancellationFromSignal } from '../../../src/core/cancellation.js';
import { describe, expect, it } from 'vitest';
import type { StreamEvent } from '../../../src/core/stream-event.js';
import { parseLlamaCompletion } from '../../../providers/openai/llama-completion-chunks.js';
import { convertOpenAiUsage, readOpenAiStream } from '../../../providers/openai/read-openai-stream.js';
import { GatewayError } from '../../../src/core/gateway-error.js';

/** One chunk per upstream read, the worst case for batching. */
async function* chunksOf(chunks: unknown[], failure?: unknown): AsyncGenerator<unknown[]> {
  for (const chunk of chunks) yield [chunk];
  if (failure !== undefined) throw failure;
}

async function read(chunks: unknown[], options: { failure?: unknown; signal?: AbortSignal } = {}): Promise<StreamEvent[]> {
  const events: StreamEvent[] = [];
  const stream = readOpenAiStream(chunksOf(chunks, options.failure), {
    provider: 'up',
    model: 'requested-model',
    warnings: [{ code: 'w', message: 'm' }],
    cancellation: options.signal && cancellationFromSignal(options.signal),
  });
  for await (const event of stream) events.push(event);
  return events;
}

const delta = (value: Record<string, unknown>, finishReason: string | null = null) => ({
  id: 'chatcmpl-up',
  model: 'served-model',
  choices: [{ index: 0, delta: value, finish_reason: finishReason }],
});

describe('readOpenAiStream', () => {
  it('starts with response-start carrying the upstream id, model and the request warnings', async () => {
    const events = await read([delta({ role: 'assistant', content: '' }), delta({}, 'stop')]);
    expect(events[0]).toEqual({
      type: 'response-start',
      id: 'chatcmpl-up',
      model: 'served-model',
      warnings: [{ code: 'w', message: 'm' }],
    });
    expect(events.at(-1)).toEqual({ type: 'finish', reason: { unified: 'stop', raw: 'stop' }, usage: {} });
  });

  it('keeps whitespace-only content deltas and skips empty ones', async () => {
    const events = await read([
      delta({ content: '' }),
      delta({ content: ' ' }),
      delta({ content: '\n' }),
      delta({ content: null }),
      delta({}, 'stop'),
    ]);
    expect(events.filter((event) => event.type === 'text-delta')).toEqual([
      { type: 'text-delta', delta: ' ' },
      { type: 'text-delta', delta: '\n' },
    ]);
  });

  it('reads reasoning from reasoning_content or reasoning', async () => {
    const events = await read([
      delta({ reasoning_content: 'think ' }),
      delta({ reasoning: 'more' }),
      delta({ content: 'answer' }),
      delta({}, 'stop'),
    ]);
    expect(events.filter((event) => event.type === 'reasoning-delta')).toEqual([
      { type: 'reasoning-delta', delta: 'think ' },
      { type: 'reasoning-delta', delta: 'more' },
    ]);
  });

  it('ends tool calls before finish and maps the finish reason', async () => {
    const events = await read([
      delta({ tool_calls: [{ index: 0, id: 'c', type: 'function', function: { name: 'f', arguments: '{}' } }] }),
      delta({}, 'tool_calls'),
    ]);
    expect(events.slice(1).map((event) => event.type)).toEqual(['tool-call-start', 'tool-call-delta', 'tool-call-end', 'finish']);
    expect(events.at(-1)).toMatchObject({ reason: { unified: 'tool-calls', raw: 'tool_calls' } });
  });

  it.each([
    ['length', 'length'],
    ['content_filter', 'content-filter'],
    ['function_call', 'tool-calls'],
    ['something_new', 'other'],
  ])('maps finish_reason %s to %s, keeping the raw value', async (raw, unified) => {
    const events = await read([delta({ content: 'x' }, raw)]);
    expect(events.at(-1)).toMatchObject({ type: 'finish', reason: { unified, raw } });
  });

  it('infers the finish reason when the upstream sends none', async () => {
    expect((await read([delta({ content: 'x' })])).at(-1)).toMatchObject({ reason: { unified: 'stop' } });
    const withCall = await read([delta({ tool_calls: [{ index: 0, id: 'c', function: { name: 'f', arguments: '{}' } }] })]);
    expect(withCall.at(-1)).toMatchObject({ reason: { unified: 'tool-calls' } });
  });

  it("names the client's stop sequence the server matched: vLLM's stop_reason, SGLang's matched_stop, llama-server's stopping_word", async () => {
    const finishOf = async (batch: unknown[], stop: string[] | undefined) => {
      const events: StreamEvent[] = [];
      for await (const event of readOpenAiStream([batch], { provider: 'up', model: 'm', warnings: [], stop })) events.push(event);
      return events.at(-1);
    };
    const stopped = (matched: Record<string, unknown>) => [
      { ...delta({ content: 'one, two, ' }), choices: [{ index: 0, delta: {}, finish_reason: 'stop', ...matched }] },
    ];
    const llama = parseLlamaCompletion(
      JSON.stringify({ content: 'one, two, ', stop: true, stop_type: 'word', stopping_word: 'STOP' }),
      'up',
    );
    for (const batch of [stopped({ stop_reason: 'STOP' }), stopped({ matched_stop: 'STOP' }), llama])
      expect(await finishOf(batch, ['\n\nHuman:', 'STOP'])).toMatchObject({
        reason: { unified: 'stop', raw: 'stop', stopSequence: 'STOP' },
      });
    // A token id, a stop string the client did not give, or no stop list at all: no stop sequence.
    for (const [batch, stop] of [
      [stopped({ stop_reason: 151645 }), ['STOP']],
      [stopped({ stop_reason: '<|im_end|>' }), ['STOP']],
      [stopped({ stop_reason: 'STOP' }), undefined],
    ] as const) {
      const finish = await finishOf(batch, stop && [...stop]);
      expect(finish).toMatchObject({ type: 'finish', reason: { unified: 'stop' } });
      expect(finish).not.toHaveProperty('reason.stopSequence');
    }
  });

  it('takes usage from the usage chunk, keeping the raw object and the detail counts', async () => {
    const usage = {
      prompt_tokens: 10,
      completion_tokens: 4,
      total_tokens: 14,
      prompt_tokens_details: { cached_tokens: 6 },
      completion_tokens_details: { reasoning_tokens: 2 },
    };
    const events = await read([delta({ content: 'x' }, 'stop'), { id: 'chatcmpl-up', choices: [], usage }]);
    expect(events.at(-1)).toMatchObject({
      usage: { inputTokens: 10, outputTokens: 4, totalTokens: 14, cachedInputTokens: 6, reasoningTokens: 2, raw: usage },
    });
  });

  it('never invents usage counts', () => {
    expect(convertOpenAiUsage({ prompt_tokens: 3 })).toEqual({ raw: { prompt_tokens: 3 }, inputTokens: 3 });
  });

  it('turns a mid-stream upstream error into an error event, keeping the GatewayError the stream gave', async () => {
    const failure = new GatewayError({
      status: 502,
      type: 'upstream_error',
      code: 'upstream_stream_error',
      message: "Upstream provider 'up' failed mid-stream: overloaded",
    });
    const events = await read([delta({ content: 'partial' })], { failure });
    expect(events.map((event) => event.type)).toEqual(['response-start', 'text-delta', 'error']);
    expect(events.at(-1)).toEqual({ type: 'error', error: failure });
  });

  it('turns any other failure while reading into a 502 naming the provider', async () => {
    const events = await read([delta({ content: 'partial' })], {
      failure: Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }),
    });
    expect(events.at(-1)).toMatchObject({ type: 'error', error: { status: 502, message: expect.stringContaining("'up'") } });
  });

  it('turns a transport failure into a 502 error event', async () => {
    const failure = Object.assign(new TypeError('terminated'), {
      cause: Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }),
    });
    const events = await read([delta({ content: 'partial' })], { failure });
    expect(events.at(-1)).toMatchObject({ type: 'error', error: { status: 502, type: 'upstream_error' } });
  });

  it("passes a refusal's words on as they come, before the error of a stream cut off before its finish", async () => {
    const events = await read(
      [delta({ role: 'assistant', content: null, refusal: '' }), delta({ refusal: "I'm" }), delta({ refusal: ' sorry' })],
      {
        failure: Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }),
      },
    );
    expect(events.map((event) => event.type)).toEqual(['response-start', 'refusal-delta', 'refusal-delta', 'error']);
    expect(events.filter((event) => event.type === 'refusal-delta').map((event) => event.delta)).toEqual(["I'm", ' sorry']);
  });

  it('ends with an error, not a finish, when the request was aborted: the client left, or the reason the abort carried', async () => {
    const controller = new AbortController();
    controller.abort(new Error('client closed the connection'));
    const events = await read([delta({ content: 'partial' })], { signal: controller.signal });
    expect(events.some((event) => event.type === 'finish')).toBe(false);
    expect(events.at(-1)).toMatchObject({ type: 'error', error: { status: 499, code: 'client_closed_request' } });

    const shutdown = new AbortController();
    shutdown.abort(
      new GatewayError({ status: 503, type: 'server_error', code: 'server_shutting_down', message: 'The gateway is shutting down.' }),
    );
    const cut = await read([delta({ content: 'partial' })], { signal: shutdown.signal });
    expect(cut.at(-1)).toMatchObject({ type: 'error', error: { status: 503, code: 'server_shutting_down' } });
  });

  it('still starts and finishes an empty stream', async () => {
    const events = await read([]);
    expect(events.map((event) => event.type)).toEqual(['response-start', 'finish']);
    expect(events[0]).toMatchObject({ id: '', model: 'requested-model' });
  });
});
