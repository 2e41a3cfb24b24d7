/** The text-format transform: calls rendered into content once complete, in order, never as tool_calls; chunking-insensitive. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AgentTextSyntax } from '../../../src/core/agent-text-syntax.js';
import type { StreamEvent } from '../../../src/core/stream-event.js';
import { renderCallsAsText } from '../../../src/pipeline/agent-format/render-calls-as-text.js';
import { DiagnosticsCollector } from '../../../src/pipeline/diagnostics-collector.js';
import { parseTextIntoCalls } from '../../../src/pipeline/parse-text-into-calls.js';
import { createAgentSyntaxRegistry } from '../../../tool-formats/agent-syntaxes/index.js';
import { createToolFormatRegistry } from '../../../tool-formats/index.js';
import { getTime, getWeather } from '../../tool-formats/helpers/tools.js';

const toolFormats = createToolFormatRegistry();
const syntaxes = createAgentSyntaxRegistry(toolFormats).syntaxes;
const qwen3 = syntaxes.get('qwen3') as AgentTextSyntax;
const finish: StreamEvent = { type: 'finish', reason: { unified: 'tool-calls' }, usage: {} };

async function* from(events: StreamEvent[]): AsyncGenerator<StreamEvent> {
  yield* events;
}

async function collect(events: AsyncIterable<StreamEvent>): Promise<StreamEvent[]> {
  const collected: StreamEvent[] = [];
  for await (const event of events) collected.push(event);
  return collected;
}

const contentOf = (events: StreamEvent[]) => events.flatMap((event) => (event.type === 'text-delta' ? [event.delta] : [])).join('');

function call(index: number, name: string, argumentsText: string): StreamEvent[] {
  return [
    { type: 'tool-call-start', index, id: `call_${index}`, name },
    { type: 'tool-call-delta', index, argumentsDelta: argumentsText.slice(0, 4) },
    { type: 'tool-call-delta', index, argumentsDelta: argumentsText.slice(4) },
    { type: 'tool-call-end', index, arguments: argumentsText },
  ];
}

const quito = qwen3.renderCall({ name: 'get_weather', arguments: '{"city":"Quito"}' });
const lima = qwen3.renderCall({ name: 'get_weather', arguments: '{"city":"Lima"}' });

describe('renderCallsAsText over native events', () => {
  it('keeps the text tokens of a client that asked for log probabilities, text held behind an open call included', async () => {
    const token = (text: string) => ({ token: text, logprob: -0.5, bytes: [...Buffer.from(text)], topLogprobs: [] });
    const events = await collect(
      renderCallsAsText(
        from([
          { type: 'text-delta', delta: 'Checking.', logprobs: [token('Checking.')] },
          { type: 'tool-call-start', index: 0, id: 'call_0', name: 'get_weather' },
          { type: 'text-delta', delta: 'Held', logprobs: [token('Held')] },
          { type: 'text-delta', delta: ' text', logprobs: [token(' text')] },
          { type: 'tool-call-end', index: 0, arguments: '{"city":"Quito"}' },
          finish,
        ]),
        qwen3,
      ),
    );
    const withTokens = events.flatMap((event) =>
      event.type === 'text-delta' && event.logprobs ? [event.logprobs.map((entry) => entry.token)] : [],
    );
    expect(withTokens).toEqual([['Checking.'], ['Held', ' text']]);
    expect(contentOf(events)).toBe(`Checking.\n${quito}\nHeld text`);
  });

  it('writes two calls after the text, one newline apart, and drops the structured calls', async () => {
    const events = await collect(
      renderCallsAsText(
        from([
          { type: 'text-delta', delta: 'Checking.' },
          ...call(0, 'get_weather', '{"city":"Quito"}'),
          ...call(1, 'get_weather', '{"city":"Lima"}'),
          finish,
        ]),
        qwen3,
      ),
    );
    expect(contentOf(events)).toBe(`Checking.\n${quito}\n${lima}`);
    expect(events.some((event) => event.type.startsWith('tool-call'))).toBe(false);
    expect(events.at(-1)).toEqual(finish);
  });

  it('emits text before a call at once, and each call as soon as it ends', async () => {
    const source = [{ type: 'text-delta', delta: 'Checking.' }, ...call(0, 'get_weather', '{"city":"Quito"}')] as StreamEvent[];
    const seen: string[] = [];
    for await (const event of renderCallsAsText(from([...source, finish]), qwen3)) {
      if (event.type === 'text-delta') seen.push(event.delta);
    }
    expect(seen).toEqual(['Checking.', `\n${quito}`]);
  });

  it('holds text that arrives while a call is open until the call is written', async () => {
    const events = await collect(
      renderCallsAsText(
        from([
          { type: 'tool-call-start', index: 0, id: 'a', name: 'get_time' },
          { type: 'text-delta', delta: 'after' },
          { type: 'tool-call-end', index: 0, arguments: '{}' },
          finish,
        ]),
        qwen3,
      ),
    );
    expect(contentOf(events)).toBe(`${qwen3.renderCall({ name: 'get_time', arguments: '{}' })}\nafter`);
  });

  it('writes calls in the order they started even when a later one ends first', async () => {
    const events = await collect(
      renderCallsAsText(
        from([
          { type: 'tool-call-start', index: 0, id: 'a', name: 'get_weather' },
          { type: 'tool-call-start', index: 1, id: 'b', name: 'get_weather' },
          { type: 'tool-call-end', index: 1, arguments: '{"city":"Lima"}' },
          { type: 'tool-call-end', index: 0, arguments: '{"city":"Quito"}' },
          finish,
        ]),
        qwen3,
      ),
    );
    expect(contentOf(events)).toBe(`${quito}\n${lima}`);
  });

  it('writes a call that never ended from its deltas when the stream finishes', async () => {
    const events = await collect(
      renderCallsAsText(
        from([
          { type: 'tool-call-start', index: 0, id: 'a', name: 'get_weather' },
          { type: 'tool-call-delta', index: 0, argumentsDelta: '{"city":"Quito"}' },
          finish,
        ]),
        qwen3,
      ),
    );
    expect(contentOf(events)).toBe(quito);
  });

  it('adds no newline where one is already, and passes reasoning and errors through', async () => {
    const error = { type: 'error', error: new Error('x') } as unknown as StreamEvent;
    const events = await collect(
      renderCallsAsText(
        from([
          { type: 'reasoning-delta', delta: 'think' },
          { type: 'text-delta', delta: 'Hi\n' },
          ...call(0, 'get_time', '{}'),
          { type: 'text-delta', delta: '\nbye' },
          error,
        ]),
        qwen3,
      ),
    );
    expect(contentOf(events)).toBe(`Hi\n${qwen3.renderCall({ name: 'get_time', arguments: '{}' })}\nbye`);
    expect(events[0]).toEqual({ type: 'reasoning-delta', delta: 'think' });
    expect(events.at(-1)).toBe(error);
  });

  // OpenAI-style upstreams end their calls only at finish: the first call was held until then, though the
  // next call's start says its arguments are done (a whole JSON object can take nothing more).
  it('writes a call whose arguments are a whole JSON object as soon as the next call starts', async () => {
    const source: StreamEvent[] = [
      { type: 'text-delta', delta: 'Checking.' },
      { type: 'tool-call-start', index: 0, id: 'a', name: 'get_weather' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '{"city":' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '"Quito"}' },
      { type: 'tool-call-start', index: 1, id: 'b', name: 'get_weather' },
      { type: 'tool-call-delta', index: 1, argumentsDelta: '{"city":"Lima"}' },
      { type: 'tool-call-end', index: 0, arguments: '{"city":"Quito"}' },
      { type: 'tool-call-end', index: 1, arguments: '{"city":"Lima"}' },
      finish,
    ];
    const written: string[] = [];
    async function* watched(): AsyncGenerator<StreamEvent> {
      for (const [position, event] of source.entries()) {
        written.push(`read ${position}`);
        yield event;
      }
    }
    for await (const event of renderCallsAsText(watched(), qwen3)) if (event.type === 'text-delta') written.push(event.delta);
    expect(written.slice(0, 7)).toEqual(['read 0', 'Checking.', 'read 1', 'read 2', 'read 3', 'read 4', `\n${quito}`]);
    expect(written.join('')).toContain(`\n${lima}`);
  });

  it('keeps the calls an upstream completed when it breaks off in the next one', async () => {
    const error = { type: 'error', error: new Error('gone') } as unknown as StreamEvent;
    const events = await collect(
      renderCallsAsText(
        from([
          { type: 'text-delta', delta: 'Checking.' },
          { type: 'tool-call-start', index: 0, id: 'a', name: 'get_weather' },
          { type: 'tool-call-delta', index: 0, argumentsDelta: '{"city":"Quito"}' },
          { type: 'tool-call-start', index: 1, id: 'b', name: 'get_weather' },
          { type: 'tool-call-delta', index: 1, argumentsDelta: '{"city":"Li' },
          error,
        ]),
        qwen3,
      ),
    );
    expect(contentOf(events)).toBe(`Checking.\n${quito}`);
    expect(events.at(-1)).toBe(error);
  });

  it('holds a call whose arguments are not yet whole JSON when the next starts, and never writes a cut-off one', async () => {
    const error = { type: 'error', error: new Error('gone') } as unknown as StreamEvent;
    const events = await collect(
      renderCallsAsText(
        from([
          { type: 'tool-call-start', index: 0, id: 'a', name: 'get_weather' },
          { type: 'tool-call-delta', index: 0, argumentsDelta: '{"city":"Qu' },
          { type: 'tool-call-start', index: 1, id: 'b', name: 'get_time' },
          { type: 'tool-call-delta', index: 1, argumentsDelta: '{}' },
          error,
        ]),
        qwen3,
      ),
    );
    expect(contentOf(events)).toBe('');
    expect(events).toEqual([error]);
  });
});

/** The prompted lane (Hermes parser) followed by the transform, over the given upstream chunks. */
async function promptedContent(chunks: string[], syntax: AgentTextSyntax): Promise<string> {
  const hermes = toolFormats.get('hermes');
  if (!hermes) throw new Error('no hermes family');
  const upstream: StreamEvent[] = [...chunks.map((delta): StreamEvent => ({ type: 'text-delta', delta })), finish];
  const parsed = parseTextIntoCalls(from(upstream), {
    createParser: () => hermes.createParser([getWeather, getTime]),
    diagnostics: new DiagnosticsCollector([]),
    singleCall: false,
  });
  return contentOf(await collect(renderCallsAsText(parsed, syntax)));
}

const piece = fc.constantFrom(
  'Let me check. ',
  '\n',
  '  ',
  '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Quito </tool_call>"}}\n</tool_call>',
  '<tool_call>{"name": "get_time", "arguments": {}}</tool_call>',
  '<think>hmm <tool_call></think>',
  'Done: {"a": 1} ',
  'é✓ ',
);

describe('chunking insensitivity', () => {
  it('gives the same content for any split of the upstream text (Hermes in, every text syntax out)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(piece, { minLength: 1, maxLength: 8 }),
        fc.array(fc.nat(), { maxLength: 12 }),
        fc.constantFrom(...syntaxes.keys()),
        async (pieces, cuts, id) => {
          const text = pieces.join('');
          const syntax = syntaxes.get(id) as AgentTextSyntax;
          const positions = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((left, right) => left - right);
          const chunks = [0, ...positions]
            .map((start, index, all) => text.slice(start, all[index + 1] ?? text.length))
            .filter((chunk) => chunk !== '');
          expect(await promptedContent(chunks, syntax)).toBe(await promptedContent([text], syntax));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('renders Hermes in as Qwen3 tags out, text kept around the calls', async () => {
    const content = await promptedContent(
      ['On it.\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Quito"}}\n</tool_call>\nThen more.'],
      qwen3,
    );
    expect(content).toBe(`On it.\n${quito}\nThen more.`);
  });
});
