/**
 * A streamed structured reply through the real openai SDK's stream helpers, which parse the accumulated text
 * (`chat.completions.stream()`'s `parsed`, `responses.stream()`'s `output_parsed`): a model in the prompted lane
 * that wraps its JSON in prose and a code fence, or writes a trailing comma, must still give the client its
 * object, as the whole reply does, and never a SyntaxError on "Sure".
 */
import { zodResponseFormat, zodTextFormat } from 'openai/helpers/zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startGatewayWithOpenAiUpstream, type GatewayWithOpenAiUpstream } from '../helpers/gateway-with-openai-upstream.js';

const Place = z.object({ city: z.string(), unit: z.enum(['celsius', 'fahrenheit']), note: z.string().nullable() });
const expected = { city: 'Paris', unit: 'celsius', note: null };
const wrapped =
  'Sure! Here is the {place} you asked for:\n```json\n{"city": "Paris", "unit": "celsius", "note": null,}\n```\nAnything else?';
const weatherTool = {
  type: 'function' as const,
  function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
};

let setup: GatewayWithOpenAiUpstream;

/** A streamed request for a Place to the prompted model, with a tool beside it; `extra` holds gateway fields (agent_format). */
function promptedPlaceStream(extra: Record<string, unknown> = {}) {
  return setup.client.chat.completions.create({
    model: 'prompted/Qwen/Qwen3-8B',
    messages: [{ role: 'user', content: 'Where?' }],
    tools: [weatherTool],
    response_format: zodResponseFormat(Place, 'place'),
    stream: true,
    ...extra,
  });
}
beforeAll(async () => {
  setup = await startGatewayWithOpenAiUpstream({ local: 'native', prompted: 'prompted' });
});
afterAll(async () => {
  await setup.close();
});

describe('streamed structured outputs through the SDK stream helpers', () => {
  it.each(['local/gpt-4.1', 'prompted/Qwen/Qwen3-8B'])(
    '%s: chat.completions.stream() parses a reply wrapped in prose and a fence',
    async (model) => {
      setup.upstream.enqueue({ type: 'chat', content: wrapped, fragmentSize: 4 });
      const stream = setup.client.chat.completions.stream({
        model,
        messages: [{ role: 'user', content: 'Where?' }],
        tools: model.startsWith('prompted/') ? [weatherTool] : undefined,
        response_format: zodResponseFormat(Place, 'place'),
      });
      let content = '';
      stream.on('content.delta', ({ delta }) => (content += delta));
      const final = await stream.finalChatCompletion();
      expect(final.choices[0]?.message.parsed).toEqual(expected);
      expect(content).toBe('{"city": "Paris", "unit": "celsius", "note": null}');
    },
  );

  it.each(['local/gpt-4.1', 'prompted/Qwen/Qwen3-8B'])('%s: responses.stream() parses it too', async (model) => {
    setup.upstream.enqueue({ type: 'chat', content: wrapped, fragmentSize: 5 });
    const stream = setup.client.responses.stream({
      model,
      input: 'Where?',
      tools: model.startsWith('prompted/')
        ? [{ type: 'function', name: 'get_weather', parameters: weatherTool.function.parameters, strict: false }]
        : [],
      text: { format: zodTextFormat(Place, 'place') },
    });
    let deltas = '';
    stream.on('response.output_text.delta', ({ delta }) => (deltas += delta));
    const final = await stream.finalResponse();
    expect(final.output_parsed).toEqual(expected);
    expect(JSON.parse(deltas)).toEqual(expected);
  });

  it("agent_format passthrough keeps a streamed reply's text as the model wrote it, markup and all", async () => {
    const written = 'Checking {city}.\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>';
    setup.upstream.enqueue({ type: 'chat', content: written, fragmentSize: 3 });
    const stream = await promptedPlaceStream({ agent_format: 'passthrough' });
    let content = '';
    const calls: string[] = [];
    for await (const chunk of stream) {
      content += chunk.choices[0]?.delta.content ?? '';
      for (const call of chunk.choices[0]?.delta.tool_calls ?? []) if (call.function?.name) calls.push(call.function.name);
    }
    expect(content).toBe(written);
    expect(calls).toEqual(['get_weather']);
  });

  it('a streamed reply with no JSON in it reaches the client as the model wrote it, with the verdict', async () => {
    setup.upstream.enqueue({ type: 'chat', content: 'I do not know {that} place.', fragmentSize: 3 });
    const stream = await promptedPlaceStream();
    let content = '';
    let diagnostics: unknown;
    for await (const chunk of stream) {
      content += chunk.choices[0]?.delta.content ?? '';
      diagnostics = (chunk as unknown as { diagnostics?: unknown }).diagnostics ?? diagnostics;
    }
    expect(content).toBe('I do not know {that} place.');
    expect(diagnostics).toMatchObject({ response_format_error: { code: 'invalid_json' } });
  });
});
