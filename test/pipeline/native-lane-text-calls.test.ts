/** The native lane's text read: calls an inference server left as markup join the calls it parsed, in one numbering. */
import { describe, expect, it } from 'vitest';
import { EventList } from '../../src/core/event-list.js';
import type { StreamEvent } from '../../src/core/stream-event.js';
import type { ToolDefinition } from '../../src/core/tool-definition.js';
import { DiagnosticsCollector } from '../../src/pipeline/diagnostics-collector.js';
import { parseTextIntoCalls } from '../../src/pipeline/parse-text-into-calls.js';
import { createToolFormatRegistry } from '../../tool-formats/index.js';

const tools: ToolDefinition[] = [
  { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } },
  { name: 'get_time', parameters: { type: 'object', properties: {} } },
];
const hermes = createToolFormatRegistry().get('hermes');

async function read(events: StreamEvent[]): Promise<StreamEvent[]> {
  if (!hermes) throw new Error('no hermes family');
  const parsed = parseTextIntoCalls(new EventList(events), {
    createParser: (startsInReasoning) => hermes.createParser(tools, { startsInReasoning }),
    diagnostics: new DiagnosticsCollector(tools),
    singleCall: false,
  });
  const out: StreamEvent[] = [];
  for await (const event of parsed) out.push(event);
  return out;
}

const finish: StreamEvent = { type: 'finish', reason: { unified: 'tool-calls' }, usage: {} } as StreamEvent;

describe("the native lane reading an inference server's text", () => {
  it("numbers a call read from the text after the server's own, and the server's after one read first", async () => {
    const events = await read([
      { type: 'tool-call-start', index: 0, id: 'call_a', name: 'get_time' },
      { type: 'tool-call-end', index: 0, arguments: '{}' },
      { type: 'text-delta', delta: '<tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}}</tool_call>' },
      { type: 'tool-call-start', index: 1, id: 'call_b', name: 'get_time' },
      { type: 'tool-call-end', index: 1, arguments: '{}' },
      finish,
    ]);
    const starts = events.filter((event) => event.type === 'tool-call-start');
    expect(starts.map((event) => [event.index, event.name])).toEqual([
      [0, 'get_time'],
      [1, 'get_weather'],
      [2, 'get_time'],
    ]);
    const ends = events.filter((event) => event.type === 'tool-call-end');
    expect(ends.map((event) => event.index)).toEqual([0, 1, 2]);
  });

  it("leaves prose and the server's calls as they came", async () => {
    const events = await read([
      { type: 'text-delta', delta: 'Checking the time.' },
      { type: 'tool-call-start', index: 0, id: 'call_a', name: 'get_time' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '{}' },
      { type: 'tool-call-end', index: 0, arguments: '{}' },
      finish,
    ]);
    expect(
      events
        .filter((event) => event.type === 'text-delta')
        .map((event) => event.delta)
        .join(''),
    ).toBe('Checking the time.');
    expect(events.filter((event) => event.type.startsWith('tool-call')).map((event) => (event as { index: number }).index)).toEqual([
      0, 0, 0,
    ]);
  });
});
