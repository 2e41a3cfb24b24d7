/** The Responses API in front of every provider kind: text, reasoning, parallel calls and the tool-result turn. */
import type OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { providerKinds, useGatewayOverKinds, type ScriptedCall } from '../chat-completions/provider-kinds.js';
import { expectValidResponseObject } from './responses-test-kit.js';

const kinds = providerKinds();
const fixture = useGatewayOverKinds(kinds);

const tools: OpenAI.Responses.FunctionTool[] = [
  {
    type: 'function',
    name: 'get_weather',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    strict: false,
  },
  {
    type: 'function',
    name: 'get_time',
    parameters: { type: 'object', properties: { timezone: { type: 'string' } }, required: ['timezone'] },
    strict: false,
  },
];

function parallelCalls(prefix: string): ScriptedCall[] {
  return [
    { id: `${prefix}_weather`, name: 'get_weather', arguments: { city: 'Paris' } },
    { id: `${prefix}_time`, name: 'get_time', arguments: { timezone: 'Europe/Paris' } },
  ];
}

describe.each(kinds)('Responses API through the gateway to $type', (kind) => {
  const model = () => `${kind.name}/${kind.model}`;

  it('streams text and reports usage', async () => {
    kind.scriptText(['Hello', ' ', 'there', '\n']);
    const final = await fixture.client().responses.stream({ model: model(), input: 'hi' }).finalResponse();
    expectValidResponseObject(final);
    expect(final.output_text).toBe('Hello there\n');
    expect(final.usage).toMatchObject({
      input_tokens: kind.usage.prompt_tokens,
      output_tokens: kind.usage.completion_tokens,
      total_tokens: kind.usage.total_tokens,
    });
  });

  it('returns reasoning as a reasoning item', async () => {
    kind.scriptReasoning('Short thought.', 'Answer.');
    const response = await fixture.client().responses.create({ model: model(), input: 'hi' });
    expect(response.output.map((item) => item.type)).toEqual(['reasoning', 'message']);
    expect(response.output_text).toBe('Answer.');
  });

  it('returns parallel calls, then carries their results back upstream', async () => {
    const calls = parallelCalls(kind.name);
    kind.scriptToolCalls(calls, 3);
    const final = await fixture.client().responses.stream({ model: model(), input: 'Weather and time in Paris?', tools }).finalResponse();
    const functionCalls = final.output.flatMap((item) => (item.type === 'function_call' ? [item] : []));
    expect(functionCalls.map((call) => ({ name: call.name, arguments: JSON.parse(call.arguments) as unknown }))).toEqual(
      calls.map((call) => ({ name: call.name, arguments: call.arguments })),
    );
    // Ollama's wire has no call ids, so the gateway mints them; the others keep the upstream's.
    if (kind.type !== 'ollama') expect(functionCalls.map((call) => call.call_id)).toEqual(calls.map((call) => call.id));

    kind.scriptText(['Sunny, ', '14:00.']);
    const followUp = await fixture.client().responses.create({
      model: model(),
      previous_response_id: final.id,
      input: functionCalls.map((call, position) => ({
        type: 'function_call_output' as const,
        call_id: call.call_id,
        output: `result-${position}`,
      })),
      tools,
    });
    expect(followUp.output_text).toBe('Sunny, 14:00.');
    const upstreamBody = JSON.stringify(kind.chatRequests().at(-1)?.body);
    expect(upstreamBody).toContain('result-0');
    expect(upstreamBody).toContain('result-1');
    if (kind.type !== 'ollama') for (const call of calls) expect(upstreamBody).toContain(call.id);
  });
});
