/**
 * Pipeline stages run over a live stream (async generator) and over an EventList (a whole reply in
 * hand, one synchronous pass) must give the same events: property-tested over random event sequences
 * for the finalize and prompted-parsing stages, plus the stopping rules.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EventList } from '../../src/core/event-list.js';
import { foldEvents, type StreamEvent } from '../../src/core/stream-event.js';
import { DiagnosticsCollector } from '../../src/pipeline/diagnostics-collector.js';
import { applyStage, type EventStage } from '../../src/pipeline/event-stage.js';
import { finalizeEvents } from '../../src/pipeline/finalize-events.js';
import { parseTextIntoCalls } from '../../src/pipeline/parse-text-into-calls.js';
import { createToolFormatRegistry } from '../../tool-formats/index.js';

async function* live(events: readonly StreamEvent[], closed?: { value: boolean }): AsyncGenerator<StreamEvent> {
  try {
    for (const event of events) yield event;
  } finally {
    if (closed) closed.value = true;
  }
}

async function collect(events: AsyncIterable<StreamEvent>): Promise<StreamEvent[]> {
  const all: StreamEvent[] = [];
  for await (const event of events) all.push(event);
  return all;
}

/** Error events carry GatewayError instances, and minted call ids are random: compared by what else a client sees. */
function comparable(events: StreamEvent[]): unknown[] {
  return events.map((event) => {
    if (event.type === 'error') return { type: 'error', status: event.error.status, message: event.error.message };
    if (event.type === 'tool-call-start' && event.id.startsWith('call_')) return { ...event, id: 'minted' };
    return event;
  });
}

const hermesText = '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>';

const eventArbitrary: fc.Arbitrary<StreamEvent> = fc.oneof(
  fc.constant<StreamEvent>({ type: 'response-start', id: 'r', model: 'm', warnings: [{ code: 'w', message: 'upstream' }] }),
  fc.string({ maxLength: 12 }).map((delta): StreamEvent => ({ type: 'text-delta', delta })),
  fc.integer({ min: 0, max: hermesText.length }).map((cut): StreamEvent => ({ type: 'text-delta', delta: hermesText.slice(0, cut) })),
  fc.constant<StreamEvent>({ type: 'text-delta', delta: hermesText }),
  fc.constant<StreamEvent>({ type: 'reasoning-delta', delta: 'thinking' }),
  fc.nat({ max: 2 }).map((index): StreamEvent => ({ type: 'tool-call-start', index, id: `c${index}`, name: 'get_weather' })),
  fc.nat({ max: 2 }).map((index): StreamEvent => ({ type: 'tool-call-end', index, arguments: '{}' })),
  fc.constantFrom<StreamEvent['type']>('finish').map((): StreamEvent => ({ type: 'finish', reason: { unified: 'stop' }, usage: {} })),
);

type Pipeline = (events: AsyncIterable<StreamEvent>) => AsyncIterable<StreamEvent>;

const hermes = createToolFormatRegistry().get('hermes');
if (!hermes) throw new Error('the hermes family is registered');
const tool = { name: 'get_weather', parameters: { type: 'object' } };

const pipelines: [string, () => Pipeline][] = [
  [
    'finalize',
    () => (events) =>
      finalizeEvents(events, {
        warnings: [{ code: 'route', message: 'r' }],
        diagnostics: new DiagnosticsCollector([{ name: 'get_weather' }]),
        provider: 'p',
      }),
  ],
  [
    'prompted parsing then finalize',
    () => {
      const diagnostics = new DiagnosticsCollector([{ name: 'get_weather' }]);
      return (events) =>
        finalizeEvents(parseTextIntoCalls(events, { createParser: () => hermes.createParser([tool]), diagnostics, singleCall: false }), {
          warnings: [],
          diagnostics,
          provider: 'p',
        });
    },
  ],
];

describe('applyStage', () => {
  it.each(pipelines)('gives the same events over an EventList as over a live stream: %s', async (_name, makePipeline) => {
    await fc.assert(
      fc.asyncProperty(fc.array(eventArbitrary, { maxLength: 12 }), async (events) => {
        const overLive = await collect(makePipeline()(live(events)));
        const overList = makePipeline()(new EventList(events));
        expect(overList).toBeInstanceOf(EventList);
        expect(comparable((overList as EventList).events.slice())).toEqual(comparable(overLive));
        // An EventList still reads as a stream, to the same events.
        expect(comparable(await collect(overList))).toEqual(comparable(overLive));
      }),
      { numRuns: 200 },
    );
  });

  it('stops reading once the stage finished, closing a live source, and does not call end()', async () => {
    const calls: string[] = [];
    const stage = (): EventStage => ({
      finished: false,
      push(event, out) {
        calls.push(event.type);
        out.push(event);
        if (event.type === 'finish') (this as { finished: boolean }).finished = true;
      },
      end() {
        calls.push('end');
      },
    });
    const finishing = { type: 'finish', reason: { unified: 'stop' }, usage: {} } satisfies StreamEvent;
    const events: StreamEvent[] = [{ type: 'text-delta', delta: 'a' }, finishing, { type: 'text-delta', delta: 'after' }];

    const closed = { value: false };
    expect(await collect(applyStage(live(events, closed), stage()))).toEqual(events.slice(0, 2));
    expect(closed.value).toBe(true);
    expect(calls).toEqual(['text-delta', 'finish']);

    calls.length = 0;
    expect((applyStage(new EventList(events), stage()) as EventList).events).toEqual(events.slice(0, 2));
    expect(calls).toEqual(['text-delta', 'finish']);
  });

  // A streamed reply is ended only by an event (a route has already sent its headers): a throw that escaped
  // left the client's connection open for good.
  it('ends a live stream with one error event, seen by the stages, when the source or a stage throws', async () => {
    const recorder = (seen: string[]): EventStage => ({
      finished: false,
      push(event, out) {
        seen.push(event.type);
        out.push(event);
        if (event.type === 'error') (this as { finished: boolean }).finished = true;
      },
      end() {
        seen.push('end');
      },
    });
    async function* throwingSource(): AsyncGenerator<StreamEvent> {
      yield { type: 'text-delta', delta: 'a' };
      throw new RangeError('Maximum call stack size exceeded');
    }
    const seen: string[] = [];
    const fromSource = await collect(applyStage(throwingSource(), recorder(seen)));
    expect(comparable(fromSource)).toEqual([
      { type: 'text-delta', delta: 'a' },
      { type: 'error', status: 500, message: 'Internal error: Maximum call stack size exceeded' },
    ]);
    expect(seen).toEqual(['text-delta', 'error']);

    const throwing: EventStage = {
      finished: false,
      push(event, out) {
        if (event.type === 'text-delta' && event.delta === 'b') throw new Error('a stage bug');
        out.push(event);
      },
      end() {},
    };
    const after: string[] = [];
    const events: StreamEvent[] = [
      { type: 'text-delta', delta: 'a' },
      { type: 'text-delta', delta: 'b' },
    ];
    const fromStage = await collect(applyStage(applyStage(live(events), throwing), recorder(after)));
    expect(comparable(fromStage)).toEqual([
      { type: 'text-delta', delta: 'a' },
      { type: 'error', status: 500, message: 'Internal error: a stage bug' },
    ]);
    expect(after).toEqual(['text-delta', 'error']);
  });
});

/** The way stages ran before they shared one generator: each its own, reading the one before. The reference. */
async function* layered(events: AsyncIterable<StreamEvent>, stage: EventStage): AsyncGenerator<StreamEvent> {
  const out: StreamEvent[] = [];
  for await (const event of events) {
    stage.push(event, out);
    for (const produced of out) yield produced;
    out.length = 0;
    if (stage.finished) return;
  }
  stage.end(out);
  for (const produced of out) yield produced;
}

/** A stage of random habits: it doubles, drops or keeps each event, may finish at one, and may say something at its end. */
type Habits = { double: number; drop: number; finishAt: number | null; endsWith: boolean };

function habitStage(habits: Habits, label: number): EventStage {
  let seen = 0;
  const stage = {
    finished: false,
    push(event: StreamEvent, out: StreamEvent[]) {
      seen++;
      if (seen % 5 !== habits.drop) out.push(event);
      if (seen % 5 === habits.double) out.push({ type: 'text-delta', delta: `copy ${label}` });
      if (habits.finishAt === seen) stage.finished = true;
    },
    end(out: StreamEvent[]) {
      if (habits.endsWith) out.push({ type: 'text-delta', delta: `end ${label}` });
    },
  };
  return stage;
}

const habitsArbitrary: fc.Arbitrary<Habits> = fc.record({
  double: fc.nat({ max: 4 }),
  drop: fc.nat({ max: 6 }),
  finishAt: fc.option(fc.integer({ min: 1, max: 14 })),
  endsWith: fc.boolean(),
});

describe('stages over a live stream', () => {
  it('share one pass and give what one generator per stage gave, finishes and ends included', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(eventArbitrary, { maxLength: 12 }),
        fc.array(habitsArbitrary, { minLength: 1, maxLength: 5 }),
        async (events, chain) => {
          let shared: AsyncIterable<StreamEvent> = live(events);
          let reference: AsyncIterable<StreamEvent> = live(events);
          chain.forEach((habits, label) => {
            shared = applyStage(shared, habitStage(habits, label));
            reference = layered(reference, habitStage(habits, label));
          });
          expect(comparable(await collect(shared))).toEqual(comparable(await collect(reference)));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('goes on where a reader left it when the same stream is iterated again', async () => {
    const events: StreamEvent[] = [
      { type: 'text-delta', delta: 'a' },
      { type: 'text-delta', delta: 'b' },
    ];
    const staged = applyStage(live(events), habitStage({ double: 9, drop: 9, finishAt: null, endsWith: false }, 0));
    const first = await staged[Symbol.asyncIterator]().next();
    expect(first.value).toEqual(events[0]);
    expect(await collect(staged)).toEqual([events[1]]);
  });
});

describe('a stage told the stream stopped', () => {
  /** Passes events on and counts the calls of stopped(). */
  class StopCounting implements EventStage {
    finished = false;
    stops = 0;
    push(event: StreamEvent, out: StreamEvent[]): void {
      if (event.type === 'finish') this.finished = true;
      out.push(event);
    }
    end(): void {}
    stopped(): void {
      this.stops++;
    }
  }
  const deltas: StreamEvent[] = [
    { type: 'text-delta', delta: 'a' },
    { type: 'text-delta', delta: 'b' },
  ];

  it('is told once when the reader leaves early', async () => {
    const stage = new StopCounting();
    for await (const event of applyStage(live(deltas), stage)) if (event.type === 'text-delta') break;
    expect(stage.stops).toBe(1);
  });

  it('is not told when the source throws: the stage sees the error event the throw becomes', async () => {
    const stage = new StopCounting();
    async function* failing(): AsyncGenerator<StreamEvent> {
      yield deltas[0] as StreamEvent;
      throw new Error('socket hang up');
    }
    const events = await collect(applyStage(failing(), stage));
    expect(events.at(-1)?.type).toBe('error');
    expect(stage.stops).toBe(0);
  });

  it('is not told when the stream reaches its end, finished or not, nor for a reply read whole', async () => {
    const ended = new StopCounting();
    await collect(applyStage(live(deltas), ended));
    const finished = new StopCounting();
    await collect(applyStage(live([...deltas, { type: 'finish', reason: { unified: 'stop' }, usage: {} }]), finished));
    const whole = new StopCounting();
    await collect(applyStage(new EventList(deltas), whole));
    expect([ended.stops, finished.stops, whole.stops]).toEqual([0, 0, 0]);
  });
});

describe('foldEvents', () => {
  it('answers with the first result, over a list or a live stream, and closes the stream', async () => {
    const events: StreamEvent[] = [
      { type: 'text-delta', delta: 'a' },
      { type: 'text-delta', delta: 'b' },
      { type: 'text-delta', delta: 'c' },
    ];
    const step = (event: StreamEvent) => (event.type === 'text-delta' && event.delta === 'b' ? 'found' : undefined);
    expect(await foldEvents(new EventList(events), step)).toBe('found');
    const closed = { value: false };
    expect(await foldEvents(live(events, closed), step)).toBe('found');
    expect(closed.value).toBe(true);
    expect(await foldEvents(new EventList(events), () => undefined)).toBeUndefined();
  });
});
