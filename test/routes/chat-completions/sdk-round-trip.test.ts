/** The real `openai` client through the gateway to every provider kind: parallel tool calls, text, reasoning. */
import type OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { providerKinds, useGatewayOverKinds, type ScriptedCall } from './provider-kinds.js';

const kinds = providerKinds();
const fixture = useGatewayOverKinds(kinds);

const tools: OpenAI.ChatCompletionTool[] = [
  {
    type: 'function',
    function: {
      name: 'get_weather',
      description: 'Current weather for a city',
      parameters: {
        type: 'object',
        properties: { city: { type: 'string' }, unit: { type: 'string', enum: ['c', 'f'] } },
        required: ['city'],
      },
    },
  },
  {
    type: 'function',
    function: { name: 'get_time', parameters: { type: 'object', properties: { timezone: { type: 'string' } }, required: ['timezone'] } },
  },
];

function parallelCalls(prefix: string): ScriptedCall[] {
  return [
    { id: `${prefix}_weather_1`, name: 'get_weather', arguments: { city: 'Paris, "Île-de-France"', unit: 'c' } },
    { id: `${prefix}_time_2`, name: 'get_time', arguments: { timezone: 'Europe/Paris' } },
  ];
}

const question: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: 'Weather and time in Paris?' }];

/** Whitespace-only pieces are content: a gateway that drops them changes the text. */
const textPieces = ['Hello', ' ', 'world', '\n', '\n', '  ', 'indented', ' '];

describe.each(kinds)('openai SDK through the gateway to $type', (kind) => {
  const model = () => `${kind.name}/${kind.model}`;

  it('chat.completions.create returns both parallel calls exactly, with finish_reason tool_calls and usage', async () => {
    const calls = parallelCalls(`${kind.name}_json`);
    kind.scriptToolCalls(calls, 2);
    const completion = await fixture.client().chat.completions.create({ model: model(), messages: question, tools });
    const choice = completion.choices[0];
    expect(choice?.finish_reason).toBe('tool_calls');
    expect(choice?.message.content).toBeNull();
    expect(choice?.message.tool_calls).toEqual(
      calls.map((call) => ({ id: call.id, type: 'function', function: { name: call.name, arguments: JSON.stringify(call.arguments) } })),
    );
    expect(completion.usage).toMatchObject(kind.usage);
    expect(completion.model).toBe(model());
    expect(completion.object).toBe('chat.completion');
  });

  it('chat.completions.stream().finalChatCompletion() assembles the fragmented parallel calls', async () => {
    const calls = parallelCalls(`${kind.name}_sse`);
    kind.scriptToolCalls(calls, 2);
    const stream = fixture
      .client()
      .chat.completions.stream({ model: model(), messages: question, tools, stream_options: { include_usage: true } });
    const final = await stream.finalChatCompletion();
    const choice = final.choices[0];
    expect(choice?.finish_reason).toBe('tool_calls');
    expect(choice?.message.tool_calls?.map((call) => ({ id: call.id, type: call.type, function: call.function }))).toEqual(
      calls.map((call) => ({ id: call.id, type: 'function', function: { name: call.name, arguments: JSON.stringify(call.arguments) } })),
    );
    for (const call of choice?.message.tool_calls ?? []) {
      if (call.type !== 'function') throw new Error('expected function calls only');
      expect(JSON.parse(call.function.arguments)).toEqual(calls.find((scripted) => scripted.id === call.id)?.arguments);
    }
    expect(final.usage).toMatchObject(kind.usage);
  });

  it('keeps whitespace-only deltas in plain text, streaming and not', async () => {
    const expected = textPieces.join('');
    kind.scriptText(textPieces);
    const completion = await fixture.client().chat.completions.create({ model: model(), messages: question });
    expect(completion.choices[0]?.message.content).toBe(expected);
    expect(completion.choices[0]?.finish_reason).toBe('stop');
    expect(completion.choices[0]?.message.tool_calls).toBeUndefined();

    kind.scriptText(textPieces);
    const deltas: string[] = [];
    const stream = fixture.client().chat.completions.stream({ model: model(), messages: question });
    stream.on('content', (delta) => deltas.push(delta));
    const final = await stream.finalChatCompletion();
    expect(final.choices[0]?.message.content).toBe(expected);
    expect(final.choices[0]?.finish_reason).toBe('stop');
    expect(deltas.join('')).toBe(expected);
    expect(deltas).toContain(' ');
    expect(deltas).toContain('\n');
  });

  it('renders reasoning as reasoning_content, streaming and not', async () => {
    const reasoning = 'The user wants a greeting. Be brief.';
    kind.scriptReasoning(reasoning, 'Hi there!');
    const completion = await fixture.client().chat.completions.create({ model: model(), messages: question });
    const message = completion.choices[0]?.message as OpenAI.ChatCompletionMessage & { reasoning_content?: string };
    expect(message.reasoning_content).toBe(reasoning);
    expect(message.content).toBe('Hi there!');

    kind.scriptReasoning(reasoning, 'Hi there!');
    let streamedReasoning = '';
    const stream = fixture.client().chat.completions.stream({ model: model(), messages: question });
    // The SDK overwrites unknown delta keys instead of concatenating them, so gather them from the chunks.
    stream.on('chunk', (chunk) => {
      const delta = chunk.choices[0]?.delta as { reasoning_content?: string } | undefined;
      streamedReasoning += delta?.reasoning_content ?? '';
    });
    const final = await stream.finalChatCompletion();
    expect(streamedReasoning).toBe(reasoning);
    expect(final.choices[0]?.message.content).toBe('Hi there!');
  });
});
