/**
 * A reply cut at the output token limit (finish_reason `length`) in the middle of a call: with a text
 * agent_format the half call is never written into the content as if it were whole, in either lane. It is
 * reported in `diagnostics.unparsed_tool_call` (`reason: unclosed`) and `finish_reason` stays `length`,
 * as the prompted lane has always done for a call the model did not close.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postJson, sseChunks } from '../../helpers/read-sse.js';
import { startAgentFormatKit, syntax, tools, type AgentFormatKit } from './agent-format-kit.js';

let kit: AgentFormatKit;

beforeAll(async () => {
  kit = await startAgentFormatKit();
});

afterAll(async () => {
  await kit?.close();
});

const question = [{ role: 'user' as const, content: 'Weather in Quito and Lima?' }];
const quito = syntax('qwen3').renderCall({ name: 'get_weather', arguments: '{"city":"Quito"}' });

/** Both lanes write "Checking.", a whole call for Quito, then run out of tokens inside the call for Lima. */
const lanes = [
  {
    lane: 'native',
    model: 'native/gpt-4o-mini',
    // A native server streams the call it parsed so far; the token limit stops it mid-arguments.
    script: () =>
      kit.native.enqueue({
        type: 'chat',
        content: 'Checking.',
        toolCalls: [
          { name: 'get_weather', arguments: { city: 'Quito' } },
          { name: 'get_weather', arguments: '{"city": "Li' },
        ],
        finishReason: 'length',
      }),
  },
  {
    // Cut after a value: only closers are missing, which the native lane's repair could supply, but the
    // arguments may have gone on (another member), so the call is not whole either.
    lane: 'native, cut after a value',
    model: 'native/gpt-4o-mini',
    script: () =>
      kit.native.enqueue({
        type: 'chat',
        content: 'Checking.',
        toolCalls: [
          { name: 'get_weather', arguments: { city: 'Quito' } },
          { name: 'get_weather', arguments: '{"city": "Lima"' },
        ],
        finishReason: 'length',
      }),
  },
  {
    lane: 'prompted',
    model: 'prompted/qwen2.5-7b-instruct',
    script: () =>
      kit.prompted.enqueue({
        type: 'chat',
        content:
          'Checking.\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Quito"}}\n</tool_call>\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Li',
        finishReason: 'length',
      }),
  },
] as const;

type Outcome = { content: string; finishReason: unknown; toolCalls: unknown; diagnostics: { unparsed_tool_call?: unknown } | undefined };

async function ask(model: string, stream: boolean): Promise<Outcome> {
  const response = await postJson(`${kit.gateway.baseUrl}/v1/chat/completions`, {
    model,
    messages: question,
    tools,
    agent_format: 'qwen3',
    stream,
  });
  expect(response.status).toBe(200);
  if (!stream) {
    const body = JSON.parse(response.text) as {
      choices: { message: { content: string; tool_calls?: unknown }; finish_reason: unknown }[];
      diagnostics?: Outcome['diagnostics'];
    };
    const [choice] = body.choices;
    return {
      content: choice?.message.content ?? '',
      finishReason: choice?.finish_reason,
      toolCalls: choice?.message.tool_calls,
      diagnostics: body.diagnostics,
    };
  }
  const chunks = sseChunks(response.text) as {
    choices?: { delta: { content?: string; tool_calls?: unknown }; finish_reason?: unknown }[];
    diagnostics?: Outcome['diagnostics'];
  }[];
  const choices = chunks.flatMap((chunk) => chunk.choices ?? []);
  return {
    content: choices.map((choice) => choice.delta.content ?? '').join(''),
    finishReason: choices.map((choice) => choice.finish_reason).findLast((reason) => reason),
    toolCalls: choices.find((choice) => choice.delta.tool_calls)?.delta.tool_calls,
    diagnostics: chunks.findLast((chunk) => chunk.diagnostics)?.diagnostics,
  };
}

describe.each(lanes.flatMap((lane) => [false, true].map((stream) => ({ ...lane, stream }))))(
  'a call cut off at the token limit, $lane lane (stream: $stream)',
  ({ model, script, stream }) => {
    it('writes the whole call and not the cut one, says so in diagnostics, and finishes with length', async () => {
      script();
      const outcome = await ask(model, stream);
      // (The prompted model's own newline before its cut call is its text, and stays.)
      expect(outcome.content.trimEnd()).toBe(`Checking.\n${quito}`);
      expect(outcome.toolCalls).toBeUndefined();
      expect(outcome.finishReason).toBe('length');
      expect(outcome.diagnostics?.unparsed_tool_call).toMatchObject({ reason: 'unclosed', text: expect.stringContaining('"city": "Li') });
    });
  },
);
