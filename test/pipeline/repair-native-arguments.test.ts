/** The native lane's argument repair as a stage: interleaved calls, mid-stream repairs, calls a stream leaves open. */
import { describe, expect, it } from 'vitest';
import { EventList } from '../../src/core/event-list.js';
import type { StreamEvent } from '../../src/core/stream-event.js';
import type { Usage } from '../../src/core/usage.js';
import { DiagnosticsCollector } from '../../src/pipeline/diagnostics-collector.js';
import { repairNativeArguments } from '../../src/pipeline/repair-native-arguments.js';
import { repairJsonText } from '../../tool-formats/shared/repair-json-text.js';

const usage: Usage = { inputTokens: 1, outputTokens: 1 };
const finish: StreamEvent = { type: 'finish', reason: { unified: 'tool-calls' }, usage };

function run(events: StreamEvent[]): { events: StreamEvent[]; warnings: string[] } {
  const diagnostics = new DiagnosticsCollector([]);
  const result = repairNativeArguments(new EventList(events), { repair: repairJsonText, diagnostics });
  if (!(result instanceof EventList)) throw new Error('a whole reply stays an EventList');
  return { events: [...result.events], warnings: (diagnostics.result()?.warnings ?? []).map((warning) => warning.code) };
}

function call(index: number, deltas: string[], end = deltas.join('')): StreamEvent[] {
  return [
    { type: 'tool-call-start', index, id: `call_${index}`, name: 'f' },
    ...deltas.map((delta): StreamEvent => ({ type: 'tool-call-delta', index, argumentsDelta: delta })),
    { type: 'tool-call-end', index, arguments: end },
  ];
}

/** Per call index: the accumulated deltas and the end's arguments. */
function calls(events: StreamEvent[]): Map<number, { deltas: string; end?: string }> {
  const byIndex = new Map<number, { deltas: string; end?: string }>();
  for (const event of events) {
    if (event.type === 'tool-call-start') byIndex.set(event.index, { deltas: '' });
    const entry = 'index' in event ? byIndex.get(event.index) : undefined;
    if (entry && event.type === 'tool-call-delta') entry.deltas += event.argumentsDelta;
    if (entry && event.type === 'tool-call-end') entry.end = event.arguments;
  }
  return byIndex;
}

describe('repairNativeArguments', () => {
  it('repairs interleaved calls independently, and the end spells what the deltas did', () => {
    const [first, second] = [call(0, ['{"a": 1,', ' "b": [1,2,', ']}']), call(1, ["{'x': No", 'ne}'])];
    const interleaved = [first[0], second[0], first[1], second[1], first[2], second[2], first[3], second[3], first[4]] as StreamEvent[];
    const result = run([...interleaved, finish]);
    expect([...calls(result.events).values()]).toEqual([
      { deltas: '{"a": 1, "b": [1,2]}', end: '{"a": 1, "b": [1,2]}' },
      { deltas: '{"x": null}', end: '{"x": null}' },
    ]);
    expect(result.warnings).toEqual(['repaired-tool-arguments', 'repaired-tool-arguments']);
  });

  it('passes a held rest on when the stream finishes with a call left open', () => {
    const open = call(0, ['{"a": 1', ', ']).slice(0, -1);
    const result = run([...open, finish]);
    expect(calls(result.events).get(0)?.deltas).toBe('{"a": 1, ');
    expect(result.events.at(-1)).toEqual(finish);
  });

  it('leaves a call the token limit cut as received, and repairs the same text when the reply ended otherwise', () => {
    const cut = [...call(0, ['{"city": "Li', 'ma"']), { ...finish, reason: { unified: 'length' } } as StreamEvent];
    const atLimit = run(cut);
    expect(calls(atLimit.events).get(0)).toEqual({ deltas: '{"city": "Lima"', end: '{"city": "Lima"' });
    expect(atLimit.warnings).toEqual(['tool-arguments-cut-off']);
    expect(atLimit.events.at(-1)).toEqual(cut.at(-1));
    const stopped = run([...call(0, ['{"city": "Li', 'ma"']), finish]);
    expect(calls(stopped.events).get(0)).toEqual({ deltas: '{"city": "Lima"}', end: '{"city": "Lima"}' });
    expect(stopped.warnings).toEqual(['repaired-tool-arguments']);
  });

  it('keeps the end’s own text when its deltas spelled less (Anthropic’s `{}` for an empty input)', () => {
    const result = run([...call(0, [], '{}'), finish]);
    expect(calls(result.events).get(0)).toEqual({ deltas: '', end: '{}' });
    expect(result.warnings).toEqual([]);
  });

  it('passes a whole first delta on as it is, and still follows the text when more comes after it', () => {
    const whole = run([...call(0, ['{"city": "Paris"}']), finish]);
    expect(calls(whole.events).get(0)).toEqual({ deltas: '{"city": "Paris"}', end: '{"city": "Paris"}' });
    expect(whole.warnings).toEqual([]);
    // A first delta that is a whole object, then more text: the same outcome as when no delta was whole.
    for (const rest of ['}', ', "c": 2}', ' ']) {
      const more = run([...call(0, ['{"a": {"b": 1}}', rest]), finish]);
      const split = run([...call(0, ['{"a": {"b": 1', '}}', rest]), finish]);
      expect(calls(more.events)).toEqual(calls(split.events));
      expect(more.warnings).toEqual(split.warnings);
    }
    // A delta that looks whole but is not JSON goes through the character-by-character path.
    const partial = run([...call(0, ['{"a": {"b": 1}', ', "c": 2}']), finish]);
    expect(calls(partial.events).get(0)).toEqual({ deltas: '{"a": {"b": 1}, "c": 2}', end: '{"a": {"b": 1}, "c": 2}' });
    expect(partial.warnings).toEqual([]);
  });
});
