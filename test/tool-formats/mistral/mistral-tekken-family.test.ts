/** The mistral-v7, mistral-v11 and mistral-v13 families: the mistral parser, the history written as tokenizer v11 / v13 write it. */
import { describe, expect, it } from 'vitest';
import type { Message } from '../../../src/core/index.js';
import { parseStripped, strippedWarning } from '../helpers/stripped-residue.js';
import { getTime, standardTools } from '../helpers/tools.js';
import { familyUnderTest, testFamilyTable } from '../helpers/family-table.js';

const v11 = familyUnderTest('mistral-v11');
const v13 = familyUnderTest('mistral-v13');
const v7 = familyUnderTest('mistral-v7');

testFamilyTable(v7.format);
testFamilyTable(v11.format);
testFamilyTable(v13.format);

/** A call with a client's id, its result, and the model's answer, then nothing more: an agent's loop. */
const loop: Message[] = [
  { role: 'user', content: [{ type: 'text', text: 'Time?' }] },
  { role: 'assistant', content: [{ type: 'tool-call', id: 'call_abcdef0123456789', name: 'get_time', arguments: '{}' }] },
  { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'call_abcdef0123456789', output: '10:00' }] },
];

describe('mistral-v11: rendering', () => {
  it('writes a call as NAME[CALL_ID]ID[ARGS]{…}, with a 9-alphanumeric id derived from a client id, and none for an example', () => {
    expect(v11.format.renderCall({ name: 'get_weather', arguments: '{"city":"Oslo"}', id: 'call_1' })).toBe(
      '[TOOL_CALLS]get_weather[CALL_ID]JqNCNswm3[ARGS]{"city": "Oslo"}',
    );
    expect(v11.format.renderCall({ name: 'get_weather', arguments: '{"city":"Oslo"}' })).toBe(
      '[TOOL_CALLS]get_weather[ARGS]{"city": "Oslo"}',
    );
  });

  it('pairs a result with its call by the same id; results that end the conversation stay a user turn', () => {
    const [, turn, results] = v11.format.renderHistory(loop);
    const callText = turn?.role === 'assistant' && turn.content[0]?.type === 'text' ? turn.content[0].text : '';
    const id = /\[CALL_ID\]([A-Za-z0-9]{9})\[ARGS\]/.exec(callText)?.[1];
    expect(id).toBeDefined();
    expect(results).toEqual({ role: 'user', content: [{ type: 'text', text: `[TOOL_RESULTS]${id}[TOOL_CONTENT]10:00[/TOOL_RESULTS]` }] });
    expect(v11.parse(callText)).toEqual([v11.call('get_time', {}, id)]);
  });
});

describe('mistral-v7: rendering', () => {
  it("writes the calls as one JSON array with the calls' ids, and a result as its call's id and the output, no JSON around it", () => {
    const [, turn, results] = v7.format.renderHistory(loop);
    const callText = turn?.role === 'assistant' && turn.content[0]?.type === 'text' ? turn.content[0].text : '';
    const id = /^\[TOOL_CALLS\]\[\{"name": "get_time", "arguments": \{\}, "id": "([A-Za-z0-9]{9})"\}\]$/.exec(callText)?.[1];
    expect(id).toBeDefined();
    expect(results).toEqual({ role: 'user', content: [{ type: 'text', text: `[TOOL_RESULTS]${id}[TOOL_CONTENT]10:00[/TOOL_RESULTS]` }] });
    expect(v7.parse(callText)).toEqual([v7.call('get_time', {}, id)]);
  });
});

describe('mistral-v13: rendering', () => {
  it('writes calls as NAME[ARGS]{…} without ids, glued to the text before them, and results bare', () => {
    const [, turn, results] = v13.format.renderHistory([
      loop[0]!,
      { role: 'assistant', content: [{ type: 'text', text: 'Checking.' }, ...(loop[1]!.content as Message['content'])] } as Message,
      loop[2]!,
    ]);
    expect(turn).toEqual({ role: 'assistant', content: [{ type: 'text', text: 'Checking.[TOOL_CALLS]get_time[ARGS]{}' }] });
    expect(results).toEqual({ role: 'user', content: [{ type: 'text', text: '[TOOL_RESULTS]10:00[/TOOL_RESULTS]' }] });
  });

  it('writes the tool list alone, with no instructions (where it goes: mistral-tekken-template.test.ts)', () => {
    expect(v13.format.renderTools([getTime], { type: 'auto' })).toBe(
      '[AVAILABLE_TOOLS][{"type": "function", "function": {"name": "get_time", "description": "Get the current UTC time.", "parameters": {"type": "object", "properties": {}, "required": []}}}][/AVAILABLE_TOOLS]',
    );
  });
});

describe('mistral-v7, mistral-v11 and mistral-v13: replies with stripped control tokens', () => {
  it.each(['mistral-v7', 'mistral-v11', 'mistral-v13'])('%s reads NAME{…} at the reply start as the mistral family does', (family) => {
    expect(parseStripped(family, standardTools, 'get_weather{"city": "Paris"}')).toEqual([
      { type: 'tool-call', name: 'get_weather', arguments: '{"city":"Paris"}' },
      strippedWarning,
    ]);
  });
});
