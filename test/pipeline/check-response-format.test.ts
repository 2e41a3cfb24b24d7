/**
 * The response-format check over any chunking of the reply: the verdict (diagnostics) and the JSON a
 * client ends up with are the same for every split of the same text, live or whole (property-tested
 * with fast-check), and fences, leading prose and trailing commas are recovered, streamed too.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EventList } from '../../src/core/event-list.js';
import type { StreamEvent } from '../../src/core/stream-event.js';
import { checkResponseFormat } from '../../src/pipeline/check-response-format.js';
import { DiagnosticsCollector } from '../../src/pipeline/diagnostics-collector.js';
import { createSchemaCheck } from '../../src/pipeline/schema-validators.js';
import { repairJsonText } from '../../tool-formats/shared/repair-json-text.js';

const schema = {
  type: 'object',
  properties: { name: { type: 'string' }, tags: { type: 'array', items: { enum: ['a', 'b'] } } },
  required: ['name', 'tags'],
};
const check = createSchemaCheck(8);
const finish: StreamEvent = { type: 'finish', reason: { unified: 'stop' }, usage: {} };

function eventsFor(text: string, cuts: number[]): StreamEvent[] {
  const points = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((left, right) => left - right);
  const pieces: string[] = [];
  let start = 0;
  for (const point of [...points, text.length]) {
    if (point > start) pieces.push(text.slice(start, point));
    start = Math.max(start, point);
  }
  return [
    { type: 'response-start', id: 'r', model: 'm', warnings: [] },
    ...pieces.map((delta) => ({ type: 'text-delta' as const, delta })),
    finish,
  ];
}

async function run(events: StreamEvent[], whole: boolean): Promise<{ text: string; code: string | undefined }> {
  const diagnostics = new DiagnosticsCollector([]);
  const source = whole
    ? new EventList(events)
    : (async function* () {
        yield* events;
      })();
  let text = '';
  for await (const event of checkResponseFormat(source, {
    format: { type: 'json_schema', name: 'item', schema },
    check,
    repair: repairJsonText,
    diagnostics,
  }))
    if (event.type === 'text-delta') text += event.delta;
  return { text, code: diagnostics.result()?.responseFormatError?.code };
}

const replies = [
  { text: '{"name": "x", "tags": ["a"]}', code: undefined },
  { text: '```json\n{"name": "x", "tags": ["a", "b",],}\n```', code: undefined },
  { text: 'Here it is: {"name": "x", "tags": []} Hope that helps.', code: undefined },
  { text: 'Filled in {name} and [tags] as requested:\n```json\n{"name": "x", "tags": [\'a\']}\n```\nDone.', code: undefined },
  { text: "{'name': 'x', 'tags': ['b'], 'extra': None}", code: undefined },
  { text: '{"name": "x", "tags": ["c"]}', code: 'schema_mismatch' },
  { text: 'No idea.', code: 'invalid_json' },
];

describe('checkResponseFormat', () => {
  it('gives the same verdict for any chunking, live or whole; a whole reply gets the recovered JSON', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...replies), fc.array(fc.nat(80), { maxLength: 8 }), async (reply, cuts) => {
        const events = eventsFor(reply.text, cuts);
        const live = await run(events, false);
        const whole = await run(events, true);
        expect(live.code).toBe(reply.code);
        expect(whole.code).toBe(reply.code);
        // Streamed or whole, a valid reply's text is its JSON alone (fences and prose dropped, near-JSON
        // mended), and an invalid one is left as the model wrote it.
        if (reply.code === undefined) expect(JSON.parse(live.text)).toEqual(JSON.parse(whole.text));
        else expect(live.text).toBe(reply.text);
        if (reply.code !== undefined) expect(whole.text).toBe(reply.text);
      }),
      { numRuns: 200 },
    );
  });

  it('a reply cut off at the token limit is not closed into valid JSON: a list cut short is not a whole answer', async () => {
    const truncated = '{"name": "x", "tags": ["a", "b"';
    const cutOff: StreamEvent = { type: 'finish', reason: { unified: 'length', raw: 'length' }, usage: {} };
    for (const whole of [true, false]) {
      const events = eventsFor(truncated, []).map((event) => (event.type === 'finish' ? cutOff : event));
      const diagnostics = new DiagnosticsCollector([]);
      const source = whole
        ? new EventList(events)
        : (async function* () {
            yield* events;
          })();
      let text = '';
      const options = { format: { type: 'json_schema' as const, name: 'item', schema }, check, repair: repairJsonText, diagnostics };
      for await (const event of checkResponseFormat(source, options)) if (event.type === 'text-delta') text += event.delta;
      expect(text).toBe(truncated);
      expect(diagnostics.result()?.responseFormatError).toMatchObject({
        code: 'invalid_json',
        message: expect.stringContaining('cut off'),
      });
    }
    // The same text with a stop is a model that forgot its closers: repaired, as before.
    expect(await run(eventsFor(truncated, []), true)).toEqual({ text: '{"name":"x","tags":["a","b"]}', code: undefined });
  });

  it("a refusal says so: Claude's stop_reason refusal (content_filter) is not taken for a reply that lost its JSON", async () => {
    const refused: StreamEvent = { type: 'finish', reason: { unified: 'content-filter', raw: 'refusal' }, usage: {} };
    const events = eventsFor("I can't help with that.", []).map((event) => (event.type === 'finish' ? refused : event));
    const diagnostics = new DiagnosticsCollector([]);
    const options = { format: { type: 'json_schema' as const, name: 'item', schema }, check, repair: repairJsonText, diagnostics };
    for await (const _event of checkResponseFormat(new EventList(events), options));
    expect(diagnostics.result()?.responseFormatError).toEqual({
      code: 'invalid_json',
      message: "The model declined to answer (finish reason 'refusal'): its reply is not the JSON asked for.",
      errors: [],
    });
  });

  it('an OpenAI refusal (finish stop, the words streamed as refusal deltas, no content) is named as a refusal too', async () => {
    const events: StreamEvent[] = [
      { type: 'refusal-delta', delta: "I'm sorry, I can't assist with that request." },
      { type: 'finish', reason: { unified: 'stop', raw: 'stop', refusal: '', refusalIsReply: true }, usage: {} },
    ];
    const diagnostics = new DiagnosticsCollector([]);
    const options = { format: { type: 'json_schema' as const, name: 'item', schema }, check, repair: repairJsonText, diagnostics };
    const out: StreamEvent[] = [];
    for await (const event of checkResponseFormat(new EventList(events), options)) out.push(event);
    // The words pass as they came: a refusal is not held for the JSON check.
    expect(out.map((event) => event.type)).toEqual(['refusal-delta', 'finish']);
    expect(diagnostics.result()?.responseFormatError).toEqual({
      code: 'invalid_json',
      message: "The model declined to answer (finish reason 'stop'): its reply is not the JSON asked for.",
      errors: [],
    });
  });

  it("streams the JSON of a format whose schema is left out (OpenAI's is optional), an array too", async () => {
    const diagnostics = new DiagnosticsCollector([]);
    const events = eventsFor('Here you go: [1, 2,] Enjoy.', [4, 15, 19]);
    const source = (async function* () {
      yield* events;
    })();
    let text = '';
    for await (const event of checkResponseFormat(source, {
      format: { type: 'json_schema', name: 'any' },
      check,
      repair: repairJsonText,
      diagnostics,
    }))
      if (event.type === 'text-delta') text += event.delta;
    expect(text).toBe('[1, 2]');
    expect(diagnostics.result()?.responseFormatError).toBeUndefined();
  });

  it('does not check a reply that called a tool', async () => {
    const diagnostics = new DiagnosticsCollector([]);
    const events: StreamEvent[] = [
      { type: 'tool-call-start', index: 0, id: 'c', name: 'f' },
      { type: 'tool-call-end', index: 0, arguments: '{}' },
      finish,
    ];
    const options = { format: { type: 'json_schema' as const, name: 'item', schema }, check, diagnostics };
    for await (const event of checkResponseFormat(new EventList(events), options)) expect(event).toBeDefined();
    expect(diagnostics.result()).toBeUndefined();
  });
});
