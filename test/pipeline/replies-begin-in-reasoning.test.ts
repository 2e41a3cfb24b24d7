/**
 * Replies that begin inside reasoning the chat template opened (an orphan `</think>`), end to end through
 * Chat Completions, Responses and Messages, streamed and not, with a fake OpenAI-compatible upstream.
 */
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeOpenAiUpstream } from '../helpers/fake-openai-upstream.js';
import { startGatewayWithOpenAiUpstream, type GatewayWithOpenAiUpstream } from '../helpers/gateway-with-openai-upstream.js';
import { postJson } from '../helpers/read-sse.js';
import type { StartedGateway } from '../helpers/start-gateway.js';

type Message = OpenAI.ChatCompletionMessage & { reasoning_content?: string };
type WithDiagnostics = { diagnostics?: { warnings?: { code: string }[] } };

const tools: OpenAI.ChatCompletionTool[] = [
  {
    type: 'function',
    function: { name: 'get_time', description: 'Get the current UTC time.', parameters: { type: 'object', properties: {} } },
  },
];
const anthropicTools = [{ name: 'get_time', description: 'Get the current UTC time.', input_schema: { type: 'object', properties: {} } }];
const thinking = 'The user wants the time.';
/** Qwen3.5 writes Qwen3-Coder XML calls after the reasoning its template opened. */
const thinkThenCall = `${thinking}\n</think>\n\n<tool_call>\n<function=get_time>\n</function>\n</tool_call>`;
const model = 'local/Qwen/Qwen3.5-27B';
const user = [{ role: 'user' as const, content: 'Time?' }];

let kit: GatewayWithOpenAiUpstream;
let upstream: FakeOpenAiUpstream;
let gateway: StartedGateway;
let client: OpenAI;

beforeAll(async () => {
  kit = await startGatewayWithOpenAiUpstream({ local: 'auto', native: 'native' });
  ({ upstream, gateway, client } = kit);
});

afterAll(async () => {
  await kit?.close();
});

const warningCodes = (body: WithDiagnostics) => (body.diagnostics?.warnings ?? []).map((warning) => warning.code);

/** The `data:` payloads of an SSE body with `event:` lines (Responses, Messages). */
function dataFrames(text: string): Record<string, any>[] {
  return text
    .split('\n')
    .filter((line) => line.startsWith('data: ') && line !== 'data: [DONE]')
    .map((line) => JSON.parse(line.slice('data: '.length)) as Record<string, any>);
}

/** A streamed completion read chunk by chunk (the SDK's own accumulator drops reasoning_content). */
async function readChatStream(body: OpenAI.ChatCompletionCreateParamsNonStreaming) {
  const stream = await client.chat.completions.create({ ...body, stream: true });
  const streamed = { content: '', reasoning: '', calls: [] as string[], warnings: [] as string[] };
  for await (const chunk of stream) {
    const delta = chunk.choices[0]?.delta as (OpenAI.ChatCompletionChunk.Choice.Delta & { reasoning_content?: string }) | undefined;
    streamed.content += delta?.content ?? '';
    streamed.reasoning += delta?.reasoning_content ?? '';
    for (const call of delta?.tool_calls ?? []) if (call.function?.name) streamed.calls.push(call.function.name);
    streamed.warnings.push(...warningCodes(chunk as WithDiagnostics));
  }
  return streamed;
}

describe('Chat Completions', () => {
  it('reads the text before the orphan </think> as reasoning', async () => {
    upstream.enqueue({ type: 'chat', content: thinkThenCall, fragmentSize: 2 });
    const completion = await client.chat.completions.create({ model, messages: user, tools });
    const message = completion.choices[0]!.message as Message;
    expect(message.reasoning_content).toBe(thinking);
    expect(message.content ?? '').not.toContain('</think>');
    expect((message.tool_calls![0] as OpenAI.ChatCompletionMessageFunctionToolCall).function.name).toBe('get_time');
    expect(warningCodes(completion as WithDiagnostics)).toEqual([]);
  });

  it('streams the reasoning as reasoning deltas, never as content', async () => {
    upstream.enqueue({ type: 'chat', content: thinkThenCall, fragmentSize: 3 });
    const streamed = await readChatStream({ model, messages: user, tools });
    expect(streamed.reasoning).toBe(thinking);
    expect(streamed.content.trim()).toBe('');
    expect(streamed.calls).toEqual(['get_time']);
  });

  it('also without tools', async () => {
    upstream.enqueue({ type: 'chat', content: `${thinking}\n</think>\n\nNoon.` });
    const completion = await client.chat.completions.create({ model, messages: user });
    const message = completion.choices[0]!.message as Message;
    expect(message.reasoning_content).toBe(thinking);
    expect(message.content).toBe('\n\nNoon.');
  });

  it('delivers a reply without a close tag as content too, with a warning', async () => {
    upstream.enqueue({ type: 'chat', content: 'It is noon.', fragmentSize: 2 });
    const streamed = await readChatStream({ model, messages: user, tools });
    expect(streamed.content).toBe('It is noon.');
    expect(streamed.reasoning).toBe('It is noon.');
    expect(streamed.warnings).toEqual(['reasoning-unclosed']);
  });

  it.each([{ reasoning_effort: 'none' }, { chat_template_kwargs: { enable_thinking: false } }])(
    'assumes nothing when the request turns thinking off (%j)',
    async (fields) => {
      upstream.enqueue({ type: 'chat', content: thinkThenCall });
      const completion = await client.chat.completions.create({ model, messages: user, tools, ...(fields as object) });
      const message = completion.choices[0]!.message as Message;
      expect(message.reasoning_content).toBeUndefined();
      // The orphan tag itself is removed, and the client is told what happened to the text before it.
      expect(message.content).toBe(`${thinking}\n\n\n`);
      expect(warningCodes(completion as WithDiagnostics)).toEqual(['reasoning-orphan-close']);
    },
  );

  it('assumes nothing when the upstream separates reasoning itself (its server has a reasoning parser)', async () => {
    upstream.enqueue({ type: 'chat', reasoning: thinking, content: 'It is noon.' });
    const completion = await client.chat.completions.create({ model, messages: user, tools });
    const message = completion.choices[0]!.message as Message;
    expect(message.reasoning_content).toBe(thinking);
    expect(message.content).toBe('It is noon.');
    expect(warningCodes(completion as WithDiagnostics)).toEqual([]);
  });
});

/** The whitespace between `</think>` and the call is content too (never dropped), in a message item of its own. */
const withoutBlankMessages = (output: Record<string, any>[]) =>
  output.filter((item) => item['type'] !== 'message' || (item['content'] as { text: string }[]).some((part) => part.text.trim() !== ''));

describe('the native lane', () => {
  const nativeModel = 'native/Qwen/Qwen3.5-27B';

  it('reads the block out of the text of a server without a reasoning parser', async () => {
    upstream.enqueue({ type: 'chat', content: `${thinking}\n</think>\n\nNoon.`, fragmentSize: 2 });
    const streamed = await readChatStream({ model: nativeModel, messages: user, tools });
    expect(streamed.reasoning).toBe(thinking);
    expect(streamed.content).toBe('\n\nNoon.');
    expect(streamed.warnings).toEqual([]);
  });

  it('leaves native calls alone, and says nothing when there was no text at all', async () => {
    upstream.enqueue({ type: 'chat', toolCalls: [{ id: 'call_1', name: 'get_time', arguments: '{}' }] });
    const completion = await client.chat.completions.create({ model: nativeModel, messages: user, tools });
    expect((completion.choices[0]!.message.tool_calls![0] as OpenAI.ChatCompletionMessageFunctionToolCall).function.name).toBe('get_time');
    expect(warningCodes(completion as WithDiagnostics)).toEqual([]);
  });
});

describe('Responses', () => {
  const body = { model, input: 'Time?', tools: [{ type: 'function', name: 'get_time', parameters: { type: 'object', properties: {} } }] };

  it('returns a reasoning item and the call (JSON)', async () => {
    upstream.enqueue({ type: 'chat', content: thinkThenCall });
    const response = await postJson(`${gateway.baseUrl}/v1/responses`, body);
    const output = withoutBlankMessages(JSON.parse(response.text).output as Record<string, any>[]);
    expect(output.map((item) => item['type'])).toEqual(['reasoning', 'function_call']);
    expect(output[0]!['summary'][0].text).toBe(thinking);
    expect(output[1]!['name']).toBe('get_time');
  });

  it('streams reasoning summary deltas and the call', async () => {
    upstream.enqueue({ type: 'chat', content: thinkThenCall, fragmentSize: 2 });
    const response = await postJson(`${gateway.baseUrl}/v1/responses`, { ...body, stream: true });
    const frames = dataFrames(response.text);
    const reasoning = frames
      .filter((frame) => frame['type'] === 'response.reasoning_summary_text.delta')
      .map((frame) => frame['delta'])
      .join('');
    expect(reasoning).toBe(thinking);
    const text = frames
      .filter((frame) => frame['type'] === 'response.output_text.delta')
      .map((frame) => frame['delta'])
      .join('');
    expect(text.trim()).toBe('');
    const completed = frames.find((frame) => frame['type'] === 'response.completed')!;
    expect(withoutBlankMessages(completed['response'].output as Record<string, any>[]).map((item) => item['type'])).toEqual([
      'reasoning',
      'function_call',
    ]);
  });
});

describe('Messages', () => {
  const body = { model, max_tokens: 100, messages: user, tools: anthropicTools };

  it('returns a thinking block and the tool_use (JSON)', async () => {
    upstream.enqueue({ type: 'chat', content: thinkThenCall });
    const response = await postJson(`${gateway.baseUrl}/v1/messages`, body);
    const content = JSON.parse(response.text).content as Record<string, any>[];
    expect(content.filter((block) => block['type'] !== 'text' || block['text'].trim() !== '').map((block) => block['type'])).toEqual([
      'thinking',
      'tool_use',
    ]);
    expect(content[0]!['thinking']).toBe(thinking);
  });

  it('streams thinking deltas and the tool_use', async () => {
    upstream.enqueue({ type: 'chat', content: thinkThenCall, fragmentSize: 2 });
    const response = await postJson(`${gateway.baseUrl}/v1/messages`, { ...body, stream: true });
    const frames = dataFrames(response.text);
    const deltas = frames.filter((frame) => frame['type'] === 'content_block_delta').map((frame) => frame['delta']);
    expect(
      deltas
        .filter((delta) => delta.type === 'thinking_delta')
        .map((delta) => delta.thinking)
        .join(''),
    ).toBe(thinking);
    expect(
      deltas
        .filter((delta) => delta.type === 'text_delta')
        .map((delta) => delta.text)
        .join(''),
    ).not.toContain('</think>');
    expect(frames.some((frame) => frame['type'] === 'content_block_start' && frame['content_block'].type === 'tool_use')).toBe(true);
  });

  it('assumes nothing with thinking disabled', async () => {
    upstream.enqueue({ type: 'chat', content: `${thinking}\n</think>\n\nNoon.` });
    const response = await postJson(`${gateway.baseUrl}/v1/messages`, { ...body, thinking: { type: 'disabled' } });
    const content = JSON.parse(response.text).content as Record<string, any>[];
    expect(content.map((block) => block['type'])).toEqual(['text']);
    expect(content[0]!['text']).toBe(`${thinking}\n\n\nNoon.`);
  });
});
