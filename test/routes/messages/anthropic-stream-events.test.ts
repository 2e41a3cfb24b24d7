/** The neutral → Anthropic event renderer on its own: block ordering when neutral events interleave. */
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../../src/core/gateway-error.js';
import type { StreamEvent } from '../../../src/core/stream-event.js';
import { AnthropicStreamEvents } from '../../../routes/messages/anthropic-stream-events.js';
import { accumulate, eventSequence, type WireEvent } from './messages-test-kit.js';

function render(events: StreamEvent[]): WireEvent[] {
  const renderer = new AnthropicStreamEvents({ id: 'msg_test', model: 'local/m' });
  return [...renderer.start(), ...events.flatMap((event) => renderer.push(event))] as WireEvent[];
}

const begin: StreamEvent = { type: 'response-start', id: 'r1', model: 'm', warnings: [] };
const finish = (unified: 'stop' | 'tool-calls' = 'stop'): StreamEvent => ({
  type: 'finish',
  reason: { unified },
  usage: { inputTokens: 3, outputTokens: 2 },
});

describe('AnthropicStreamEvents', () => {
  it('text that arrives while a tool call is still open is held back until the call ends, then streams in place', () => {
    const events = render([
      begin,
      { type: 'tool-call-start', index: 0, id: 'call_a', name: 'f' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '{"x":' },
      { type: 'text-delta', delta: 'after' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '1}' },
      { type: 'text-delta', delta: ' the call' },
      { type: 'tool-call-end', index: 0, arguments: '{"x":1}' },
      { type: 'text-delta', delta: '!' },
      finish('tool-calls'),
    ]);
    expect(eventSequence(events)).toEqual([
      'message_start',
      'ping',
      'start tool_use #0',
      'input_json_delta #0',
      'input_json_delta #0',
      'stop #0',
      'start text #1',
      'text_delta #1',
      'text_delta #1',
      'stop #1',
      'message_delta',
      'message_stop',
    ]);
    expect(accumulate(events).content).toEqual([
      { type: 'tool_use', id: 'call_a', name: 'f', input: { x: 1 } },
      { type: 'text', text: 'after the call!' },
    ]);
  });

  it('arguments given only at tool-call-end are sent as one input_json_delta', () => {
    const events = render([
      begin,
      { type: 'tool-call-start', index: 0, id: 'c', name: 'f' },
      { type: 'tool-call-end', index: 0, arguments: '{"a":"b"}' },
      finish('tool-calls'),
    ]);
    expect(eventSequence(events).slice(2, 5)).toEqual(['start tool_use #0', 'input_json_delta #0', 'stop #0']);
    expect(accumulate(events).content).toEqual([{ type: 'tool_use', id: 'c', name: 'f', input: { a: 'b' } }]);
  });

  it('a signature seals its thinking block; later reasoning opens a new one (interleaved thinking)', () => {
    const events = render([
      begin,
      { type: 'reasoning-delta', delta: 'one' },
      { type: 'reasoning-signature', signature: 's1' },
      { type: 'reasoning-delta', delta: 'two' },
      { type: 'text-delta', delta: '' },
      { type: 'text-delta', delta: 'answer' },
      finish(),
    ]);
    expect(accumulate(events).content).toEqual([
      { type: 'thinking', thinking: 'one', signature: 's1' },
      { type: 'thinking', thinking: 'two', signature: '' },
      { type: 'text', text: 'answer' },
    ]);
  });

  it('an error event interrupts without closing blocks or sending message_stop', () => {
    const events = render([
      begin,
      { type: 'text-delta', delta: 'par' },
      { type: 'error', error: new GatewayError({ status: 504, type: 'timeout_error', code: 'upstream_timeout', message: 'too slow' }) },
    ]);
    expect(eventSequence(events)).toEqual(['message_start', 'ping', 'start text #0', 'text_delta #0', 'error']);
    expect(events.at(-1)).toEqual({ type: 'error', error: { type: 'api_error', message: 'too slow' } });
  });

  it('finish closes a tool call that never ended and reports usage and diagnostics on message_delta', () => {
    const renderer = new AnthropicStreamEvents({ id: 'msg_test', model: 'm' });
    renderer.push(begin);
    renderer.push({ type: 'tool-call-start', index: 0, id: 'c', name: 'f' });
    const tail = renderer.push({
      type: 'finish',
      reason: { unified: 'tool-calls' },
      usage: { inputTokens: 10, outputTokens: 4, cachedInputTokens: 6 },
      diagnostics: { toolCallError: { code: 'unavailable_tool', message: 'no such tool', availableTools: ['f'] } },
    });
    expect(tail).toEqual([
      { type: 'content_block_stop', index: 0 },
      {
        type: 'message_delta',
        delta: { stop_reason: 'tool_use', stop_sequence: null },
        usage: { input_tokens: 4, output_tokens: 4, cache_read_input_tokens: 6 },
        diagnostics: { tool_call_error: { code: 'unavailable_tool', message: 'no such tool', available_tools: ['f'] } },
      },
      { type: 'message_stop' },
    ]);
  });
});
