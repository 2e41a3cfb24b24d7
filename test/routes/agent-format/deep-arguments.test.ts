/** Call arguments nested far deeper than any real call, from either lane: every reply still ends, streamed or not. */
// Strict JSON skipped the depth bound of the tolerant reader, and the recursive walks after it overflowed the
// stack: a 500 for a whole reply, and a stream that never ended.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chat, startAgentFormatKit, tools, type AgentFormatKit } from './agent-format-kit.js';

let kit: AgentFormatKit;

beforeAll(async () => {
  kit = await startAgentFormatKit();
});

afterAll(async () => {
  await kit?.close();
});

const depth = 20_000;
const deepArguments = `{"city":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}}`;
const question = [{ role: 'user' as const, content: 'Weather?' }];

describe.each([false, true])(`arguments nested ${depth} levels deep (stream: %s)`, (stream) => {
  it.each(['openai', 'qwen3', 'gemma'])('a prompted model writing them gets no call, and a reply that ends (%s)', async (format) => {
    kit.prompted.enqueue({
      type: 'chat',
      content: `Checking.<tool_call>{"name": "get_weather", "arguments": ${deepArguments}}</tool_call>`,
      fragmentSize: 4096,
    });
    const outcome = await chat(
      kit.client,
      { model: 'prompted/qwen2.5-7b-instruct', messages: question, tools, agent_format: format },
      { stream },
    );
    expect(outcome.content).toBe('Checking.');
    expect(outcome.toolCalls).toEqual([]);
    expect(outcome.finishReason).toBe('stop');
  });

  it.each(['qwen3', 'hermes', 'harmony'])('a native call with them is written as %s text', async (format) => {
    kit.native.enqueue({ type: 'chat', toolCalls: [{ name: 'get_weather', arguments: deepArguments }], fragmentSize: 4096 });
    const outcome = await chat(kit.client, { model: 'native/gpt-4o-mini', messages: question, tools, agent_format: format }, { stream });
    expect(outcome.content).toContain('get_weather');
    expect(outcome.toolCalls).toEqual([]);
    expect(outcome.finishReason).toBe('stop');
  });
});
