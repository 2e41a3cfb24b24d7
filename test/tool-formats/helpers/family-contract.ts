/** Contract tests every ToolFormat must pass; phase-2 families reuse them. */
// Call round trips, history without tool roles, byte-stable rendering, tool choice, no parsing without
// tools.
import { describe, expect, it } from 'vitest';
import type { Message, ToolFormat } from '../../../src/core/index.js';
import { parseWhole } from './chunking-invariance.js';
import { documentedWeather, getTime, searchWeb, standardTools, writeFile } from './tools.js';

/** Calls whose arguments stress escaping: quotes, newlines, unicode, nesting, markers inside strings. */
export const roundTripCalls = [
  { name: 'get_time', arguments: {} },
  { name: 'get_weather', arguments: { city: 'São Paulo ☀️', unit: 'celsius' } },
  { name: 'write_file', arguments: { path: 'src/a.ts', content: 'const s = "</tool_call>";\n\tif (a < b) { return `x`; }\n```\n' } },
  {
    name: 'create_event',
    arguments: { title: "It's {weekly}", attendees: ['a@x.io'], options: { remind: true, minutes: 10, extra: null } },
  },
  { name: 'search_web', arguments: { query: 'C:\\path\\to [1] (x)', max_results: 5 } },
];

/** A conversation with calls, results (some without a tool name) and reasoning. */
export const conversation: Message[] = [
  { role: 'system', content: 'You are terse.' },
  { role: 'user', content: [{ type: 'text', text: 'Weather in Oslo, and the time?' }] },
  {
    role: 'assistant',
    content: [
      { type: 'reasoning', text: 'Two tools.' },
      { type: 'text', text: 'Checking.' },
      { type: 'tool-call', id: 'call_1', name: 'get_weather', arguments: '{"city":"Oslo"}' },
      { type: 'tool-call', id: 'call_2', name: 'get_time', arguments: '{}' },
    ],
  },
  { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'call_1', output: '-3 C, snow' }] },
  {
    role: 'tool',
    content: [{ type: 'tool-result', toolCallId: 'call_2', toolName: 'get_time', output: 'error: clock unavailable', isError: true }],
  },
  { role: 'assistant', content: [{ type: 'text', text: 'It is -3 C and snowing.' }] },
  { role: 'user', content: [{ type: 'text', text: 'Thanks' }] },
];

/**
 * The rendered history as one line-oriented text (`[role] text` per message), so that family snapshots
 * show what the family writes, not the fixture's JSON structure around it.
 */
export function historyTranscript(format: ToolFormat): string {
  return format
    .renderHistory(conversation)
    .map((message) => {
      const text =
        typeof message.content === 'string'
          ? message.content
          : message.content
              .map((part) =>
                part.type === 'text' ? part.text : part.type === 'reasoning' ? `(reasoning: ${part.text}) ` : `<${part.type}>`,
              )
              .join('');
      return `[${message.role}] ${text}`;
    })
    .join('\n');
}

export function testFamilyContract(format: ToolFormat): void {
  describe(`${format.family}: ToolFormat contract`, () => {
    it.each(roundTripCalls.map((call) => [call.name, call]))(
      'parses its own rendering of a %s call back to the same call',
      (_name, call) => {
        const rendered = format.renderCall({ name: call.name, arguments: JSON.stringify(call.arguments) });
        expect(parseWhole(() => format.createParser(standardTools), rendered)).toEqual([
          { type: 'tool-call', name: call.name, arguments: JSON.stringify(call.arguments) },
        ]);
      },
    );

    it('parses the parallel calls of a rendered assistant turn back', () => {
      const calls = roundTripCalls.map((call, index) => ({
        type: 'tool-call' as const,
        id: `call_${index}`,
        name: call.name,
        arguments: JSON.stringify(call.arguments),
      }));
      // One turn, or one per call for a family whose template writes a single call per turn (Llama 3.1's).
      const turns = format.renderHistory([{ role: 'assistant', content: calls }]);
      const parsed = turns
        .flatMap((turn) =>
          parseWhole(
            () => format.createParser(standardTools),
            turn.role === 'assistant' && turn.content[0]?.type === 'text' ? turn.content[0].text : '',
          ),
        )
        .filter((event) => event.type !== 'text' || event.text.trim() !== '');
      expect(parsed).toEqual(calls.map((call) => ({ type: 'tool-call', name: call.name, arguments: call.arguments })));
    });

    it('renders history without tool roles or tool-call parts, deterministically, without mutating its input', () => {
      const before = JSON.stringify(conversation);
      const rendered = format.renderHistory(conversation);
      expect(JSON.stringify(conversation)).toBe(before);
      expect(rendered.some((message) => message.role === 'tool')).toBe(false);
      expect(rendered.some((message) => message.role === 'assistant' && message.content.some((part) => part.type === 'tool-call'))).toBe(
        false,
      );
      expect(JSON.stringify(format.renderHistory(conversation))).toBe(JSON.stringify(rendered));
      // The two consecutive tool messages become one user turn, or, for a family whose template writes
      // results in the model's turn (`resultsInCallTurn`), join the turn that made the calls with the answer.
      // A family whose template writes one call and one result per turn (`turnPerCall`) writes neighbouring
      // turns of one role, counted here as one.
      const roles = rendered.map((message) => message.role).filter((role, index, all) => index === 0 || all[index - 1] !== role);
      const inCallTurn = roles.length === 4;
      expect(roles).toEqual(
        inCallTurn ? ['system', 'user', 'assistant', 'user'] : ['system', 'user', 'assistant', 'user', 'assistant', 'user'],
      );
      const results = JSON.stringify(rendered.slice(inCallTurn ? 2 : 3));
      for (const expected of ['-3 C, snow', 'clock unavailable']) expect(results).toContain(expected);
    });

    it('names every tool with its description and schema', () => {
      const prompt = format.renderTools([documentedWeather, searchWeb, writeFile], { type: 'auto' });
      for (const tool of [documentedWeather, searchWeb, writeFile]) {
        expect(prompt).toContain(tool.name);
        expect(prompt).toContain(tool.description);
      }
      expect(prompt).toContain('max_results');
      expect(prompt).toContain(documentedWeather.whenToUse);
      expect(prompt).toContain('weather, travel');
      expect(prompt).toContain('Weather in Paris');
      expect(prompt).toContain(format.renderCall({ name: 'get_weather', arguments: '{"city":"Oslo","unit":"celsius"}' }));
      expect(format.renderTools([documentedWeather, searchWeb, writeFile], { type: 'auto' })).toBe(prompt);
    });

    it('follows the tool choice', () => {
      expect(format.renderTools([getTime, searchWeb], { type: 'required' })).toMatch(/must call at least one tool/);
      const named = format.renderTools([getTime, searchWeb], { type: 'tool', name: 'search_web' });
      expect(named).toContain('must call the tool "search_web"');
      expect(named).not.toContain('get_time');
      expect(format.renderTools([], { type: 'auto' })).toBe('');
    });

    it('parses nothing when no tools are offered', () => {
      const text = format.renderCall({ name: 'get_time', arguments: '{}' });
      expect(parseWhole(() => format.createParser([]), `<think>x</think>${text}`)).toEqual([
        { type: 'text', text: `<think>x</think>${text}` },
      ]);
    });
  });
}
