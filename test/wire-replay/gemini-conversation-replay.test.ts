/**
 * The two Gemini captures are one recorded conversation: a `getWeather` call with its thought signature,
 * then the answer once the result came back. Replayed through Chat Completions with the `openai` client,
 * the second turn must hand Gemini the signature it sent, byte for byte, beside the call it belongs to.
 */
import type OpenAI from 'openai';
import { expect, it } from 'vitest';
import { readWireFixture } from '../helpers/replay-upstream.js';
import { captureContents } from './capture-contents.js';
import { replayModel, toolsFor, useReplayGateway } from './replay-gateway.js';

const replayGateway = useReplayGateway();

const callTurn = readWireFixture('gemini', 'function-call-streamed.sse');
const answerTurn = readWireFixture('gemini', 'text-streamed.sse');

/** The thought signature as Gemini sent it, read from the capture. */
function recordedSignature(): string {
  const chunk = JSON.parse(callTurn.text.slice('data: '.length)) as {
    candidates: { content: { parts: { thoughtSignature: string }[] } }[];
  };
  return chunk.candidates[0]?.content.parts[0]?.thoughtSignature ?? '';
}

it('hands Gemini back the thought signature of the recorded call, and the client gets the recorded answer', async () => {
  const client = replayGateway().gateway.client();
  const model = replayModel(callTurn);
  const tools = toolsFor(callTurn) ?? [];
  const question: OpenAI.ChatCompletionMessageParam = { role: 'user', content: '今日の東京の天気を教えて' };

  replayGateway().upstream.replay(callTurn, { chunking: { kind: 'bytes', size: 64 } });
  const first = await client.chat.completions.stream({ model, messages: [question], tools }).finalChatCompletion();
  const call = first.choices[0]?.message.tool_calls?.[0];
  expect(call?.type === 'function' ? call.function.name : undefined).toBe(captureContents(callTurn).calls[0]?.name);

  replayGateway().upstream.replay(answerTurn, { chunking: { kind: 'bytes', size: 7 }, lineEnding: 'crlf' });
  const second = await client.chat.completions.create({
    model,
    tools,
    messages: [
      question,
      first.choices[0]?.message as OpenAI.ChatCompletionMessageParam,
      { role: 'tool', tool_call_id: call?.id ?? '', content: '曇り、22度' },
    ],
    stream: true,
  });
  let answer = '';
  for await (const chunk of second) answer += chunk.choices[0]?.delta.content ?? '';
  expect(answer).toBe(captureContents(answerTurn).text);

  const contents = (replayGateway().upstream.requests.at(-1)?.body as { contents: { role: string; parts: Record<string, unknown>[] }[] })
    .contents;
  const modelTurn = contents.find((content) => content.role === 'model');
  expect(modelTurn?.parts[0]).toMatchObject({
    functionCall: { name: 'getWeather', args: { location: 'Tokyo' } },
    thoughtSignature: recordedSignature(),
  });
});
