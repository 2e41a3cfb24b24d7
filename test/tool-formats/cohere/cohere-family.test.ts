import { describe, expect, it } from 'vitest';
import type { Message } from '../../../src/core/index.js';
import { createToolFormatRegistry } from '../../../tool-formats/index.js';
import { expectChunkingInvariant } from '../helpers/chunking-invariance.js';
import { standardTools } from '../helpers/tools.js';
import { familyUnderTest, testFamilyTable, textOf } from '../helpers/family-table.js';

const { format, parse, call } = familyUnderTest('cohere');

testFamilyTable(format);

const action = (...calls: string[]) => `<|START_ACTION|>[\n    ${calls.join(',\n    ')}\n]<|END_ACTION|>`;

// The contract compares calls without ids; the action's tool_call_id is the call's id (checked below).

describe('cohere: rendering', () => {
  it('numbers calls across turns whatever their ids, and pairs each result with its call', () => {
    const messages: Message[] = [
      { role: 'assistant', content: [{ type: 'tool-call', id: 'call_a', name: 'get_weather', arguments: '{"city":"Oslo"}' }] },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'call_a', output: 'sunny' }] },
      { role: 'assistant', content: [{ type: 'tool-call', id: '0', name: 'get_time', arguments: '{}' }] },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: '0', output: 'noon' }] },
    ];
    const texts = format.renderHistory(messages).map((message) => (message.content[0] as { text: string }).text);
    expect(texts[0]).toContain('"tool_call_id": "0"');
    expect(texts[1]).toContain('"tool_call_id": "0"');
    // The model's own "0" from the second turn is the conversation's second call.
    expect(texts[2]).toContain('"tool_call_id": "1"');
    expect(texts[3]).toContain('"tool_call_id": "1"');
  });
});

describe('cohere: Cohere2 MoE (North Code) replies', () => {
  // Its template opens <|START_THINKING|>; the answer is in <|START_TEXT|>, calls in the usual action list.
  const action = '<|START_ACTION|>[{"tool_call_id": "0", "tool_name": "get_time", "parameters": {}}]<|END_ACTION|>';

  it('reads the opened block, then an action, streamed or not', () => {
    expect(parse(`Plan it.<|END_THINKING|>${action}<|END_OF_TURN_TOKEN|>`, { startsInReasoning: true })).toEqual([
      { type: 'reasoning', text: 'Plan it.' },
      call('get_time', {}, '0'),
    ]);
  });

  it('ends the block before the answer or an action when its close is missing, and drops the text tags', () => {
    expect(parse('Plan it.<|START_TEXT|>It is noon.<|END_TEXT|>', { startsInReasoning: true })).toEqual([
      { type: 'reasoning', text: 'Plan it.' },
      { type: 'text', text: 'It is noon.' },
    ]);
    expect(parse(`<|START_THINKING|>Plan it.${action}`)).toEqual([{ type: 'reasoning', text: 'Plan it.' }, call('get_time', {}, '0')]);
  });

  it('leaves <|START_TEXT|> to other families as text', () => {
    const hermes = createToolFormatRegistry().get('hermes')!;
    expect(expectChunkingInvariant(() => hermes.createParser(standardTools), '<|START_TEXT|>x')).toEqual([
      { type: 'text', text: '<|START_TEXT|>x' },
    ]);
  });
});

describe('cohere: parsing', () => {
  it('reads an action after the plan, keeping the model’s tool_call_id', () => {
    expect(
      parse(
        `<|START_THINKING|>I will search.<|END_THINKING|>${action('{"tool_call_id": "0", "tool_name": "search_web", "parameters": {"query": "cohere"}}')}`,
      ),
    ).toEqual([{ type: 'reasoning', text: 'I will search.' }, call('search_web', { query: 'cohere' }, '0')]);
  });

  it('reads parallel calls, nested and unicode parameters, and calls without ids', () => {
    expect(
      parse(
        action(
          '{"tool_call_id": "0", "tool_name": "get_weather", "parameters": {"city": "Montréal"}}',
          '{"tool_call_id": "1", "tool_name": "get_time", "parameters": {}}',
        ),
      ),
    ).toEqual([call('get_weather', { city: 'Montréal' }, '0'), call('get_time', {}, '1')]);
    expect(parse(action('{"tool_name": "create_event", "parameters": {"title": "Sync", "options": {"remind": true}}}'))).toEqual([
      call('create_event', { title: 'Sync', options: { remind: true } }),
    ]);
  });

  it('drops the response framing around an answer', () => {
    expect(
      parse('<|START_THINKING|>Easy.<|END_THINKING|><|START_RESPONSE|>Hello! How can I help?<|END_RESPONSE|><|END_OF_TURN_TOKEN|>'),
    ).toEqual([
      { type: 'reasoning', text: 'Easy.' },
      { type: 'text', text: 'Hello! How can I help?' },
    ]);
  });

  it('rejects unknown tools, keeping markup out of the text', () => {
    const unknown = parse(`Sure.${action('{"tool_call_id": "0", "tool_name": "directly_answer", "parameters": {}}')}`);
    expect(unknown).toMatchObject([
      { type: 'text', text: 'Sure.' },
      { type: 'tool-call-rejected', code: 'unavailable_tool' },
    ]);
    expect(textOf(unknown)).not.toContain('directly_answer');
  });
});
