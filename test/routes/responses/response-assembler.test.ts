/** The event → item state machine, driven directly: ordering, unfinished calls, failure codes, diagnostics. */
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../../src/core/gateway-error.js';
import type { StreamEvent } from '../../../src/core/stream-event.js';
import { ResponseAssembler } from '../../../routes/responses/response-assembler.js';
import type { ResponseEcho } from '../../../routes/responses/response-object.js';

const echo: ResponseEcho = {
  instructions: null,
  tools: [],
  toolChoice: 'auto',
  parallelToolCalls: true,
  temperature: null,
  topP: null,
  maxOutputTokens: null,
  previousResponseId: null,
  reasoning: null,
  text: { format: { type: 'text' } },
  store: true,
  user: undefined,
  metadata: {},
};

function assembler(options: { custom?: string[]; warnings?: { code: string; message: string }[] } = {}) {
  return new ResponseAssembler(
    { id: 'resp_test', createdAt: 1, model: 'local/m', echo },
    { toolKinds: { custom: new Set(options.custom ?? []), namespaces: new Map() }, warnings: options.warnings ?? [] },
  );
}

function run(target: ResponseAssembler, events: StreamEvent[]) {
  const wire = [...target.start()];
  for (const event of events) wire.push(...target.push(event));
  return wire;
}

const finish: StreamEvent = { type: 'finish', reason: { unified: 'tool-calls' }, usage: { inputTokens: 3, outputTokens: 2 } };

describe('ResponseAssembler', () => {
  it('closes text before a call and opens a new message for text after it', () => {
    const target = assembler();
    const wire = run(target, [
      { type: 'text-delta', delta: 'Before.' },
      { type: 'tool-call-start', index: 0, id: 'call_1', name: 'f' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '{}' },
      { type: 'text-delta', delta: 'After.' },
      { type: 'tool-call-end', index: 0, arguments: '{}' },
      finish,
    ]);
    expect(wire.map((event) => event.sequence_number)).toEqual(wire.map((_, position) => position));
    const outcome = target.outcome;
    expect(outcome?.type).toBe('response');
    expect(outcome?.response.output.map((item) => item.type)).toEqual(['message', 'function_call', 'message']);
  });

  it('closes calls that never got an end event, with the arguments received', () => {
    const target = assembler({ custom: ['apply_patch'] });
    run(target, [
      { type: 'tool-call-start', index: 0, id: 'call_1', name: 'f' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '{"a":1}' },
      { type: 'tool-call-start', index: 1, id: 'call_2', name: 'apply_patch' },
      { type: 'tool-call-delta', index: 1, argumentsDelta: '{"input":"x"}' },
      { type: 'finish', reason: { unified: 'length' }, usage: {} },
    ]);
    expect(target.outcome?.response).toMatchObject({
      status: 'incomplete',
      incomplete_details: { reason: 'max_output_tokens' },
      output: [
        { type: 'function_call', arguments: '{"a":1}', status: 'incomplete' },
        { type: 'custom_tool_call', input: 'x', status: 'incomplete' },
      ],
    });
    expect(target.outcome?.response).not.toHaveProperty('usage');
  });

  it.each([
    [429, 'rate_limit_exceeded', 'rate_limit_exceeded'],
    [400, 'context_length_exceeded', 'context_length_exceeded'],
    [502, 'upstream_stream_error', 'server_error'],
  ])('reports an HTTP %i failure (%s) with the code %s', (status, code, expected) => {
    const target = assembler();
    const error = new GatewayError({ status, type: 'upstream_error', code, message: 'failed' });
    const wire = run(target, [
      { type: 'text-delta', delta: 'x' },
      { type: 'error', error },
    ]);
    expect(wire.at(-1)).toMatchObject({
      type: 'response.failed',
      response: { status: 'failed', error: { code: expected, message: 'failed' } },
    });
    expect(target.outcome).toMatchObject({ type: 'error', error });
  });

  it('renders the pipeline diagnostics (route warnings already merged in) in snake_case', () => {
    const target = assembler({ warnings: [{ code: 'unsupported-tool', message: 'web_search dropped' }] });
    run(target, [
      {
        type: 'finish',
        reason: { unified: 'stop' },
        usage: {},
        diagnostics: {
          toolCallError: { code: 'unavailable_tool', message: 'no such tool', availableTools: ['f'] },
          warnings: [
            { code: 'unsupported-tool', message: 'web_search dropped' },
            { code: 'w', message: 'm' },
          ],
        },
      },
    ]);
    expect(target.outcome?.response.diagnostics).toEqual({
      tool_call_error: { code: 'unavailable_tool', message: 'no such tool', available_tools: ['f'] },
      warnings: [
        { code: 'unsupported-tool', message: 'web_search dropped' },
        { code: 'w', message: 'm' },
      ],
    });
  });

  it('keeps the route warnings on a failed response, which carries no pipeline diagnostics', () => {
    const target = assembler({ warnings: [{ code: 'unsupported-tool', message: 'web_search dropped' }] });
    run(target, [{ type: 'error', error: new GatewayError({ status: 502, type: 'upstream_error', message: 'boom' }) }]);
    expect(target.outcome?.response.diagnostics).toEqual({ warnings: [{ code: 'unsupported-tool', message: 'web_search dropped' }] });
  });

  it('ignores events after the terminal one', () => {
    const target = assembler();
    run(target, [finish]);
    expect(target.push({ type: 'text-delta', delta: 'late' })).toEqual([]);
  });
});
