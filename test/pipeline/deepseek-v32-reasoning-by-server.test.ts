/**
 * DeepSeek V3.2 through llama-server begins its reply inside reasoning: llama.cpp's template for it
 * (models/templates/DeepSeek-V3.2.jinja) defaults `enable_thinking` to true and ends the generation prompt
 * with `<think>`. vLLM's V3.2 encoder (vllm/tokenizers/deepseek_v32.py) defaults to chat mode and writes
 * `</think>` instead, so there the reply begins as content.
 */
import type OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { gatewayOverFakeOpenAi } from '../helpers/gateway-with-openai-upstream.js';
import { testProvider } from '../helpers/start-gateway.js';

type Message = OpenAI.ChatCompletionMessage & { reasoning_content?: string };

const { upstream, gateway } = await gatewayOverFakeOpenAi((fake) => ({
  providers: {
    llama: testProvider('openai-compatible', `${fake.url}/v1`, { toolCalling: 'prompted', server: 'llama.cpp' }),
    vllm: testProvider('openai-compatible', `${fake.url}/v1`, { toolCalling: 'prompted', server: 'vllm' }),
  },
}));
const client = gateway.client();

const tools: OpenAI.ChatCompletionTool[] = [
  {
    type: 'function',
    function: { name: 'get_time', description: 'Get the current UTC time.', parameters: { type: 'object', properties: {} } },
  },
];
const user = [{ role: 'user' as const, content: 'Time?' }];
const thinking = 'The user wants the time.';
const call = '<｜DSML｜function_calls>\n<｜DSML｜invoke name="get_time">\n</｜DSML｜invoke>\n</｜DSML｜function_calls>';

async function reply(model: string, content: string, extra: Record<string, unknown> = {}): Promise<Message> {
  upstream.enqueue({ type: 'chat', content, fragmentSize: 3 });
  const completion = await client.chat.completions.create({ model, messages: user, tools, ...extra });
  return completion.choices[0]!.message as Message;
}

describe('DeepSeek V3.2: where the reply begins', () => {
  it('on llama-server, reads the text before the orphan </think> as reasoning, then the DSML call', async () => {
    const message = await reply('llama/deepseek-ai/DeepSeek-V3.2', `${thinking}</think>${call}`);
    expect(message.reasoning_content).toBe(thinking);
    expect(message.content ?? '').toBe('');
    expect(message.tool_calls?.map((toolCall) => toolCall.type === 'function' && toolCall.function.name)).toEqual(['get_time']);
  });

  it('on llama-server with thinking turned off, and on vLLM, reads the reply as content', async () => {
    const answer = 'It is noon.';
    const off = await reply('llama/deepseek-ai/DeepSeek-V3.2', answer, { chat_template_kwargs: { enable_thinking: false } });
    expect(off.content).toBe(answer);
    expect(off.reasoning_content).toBeUndefined();
    const vllm = await reply('vllm/deepseek-ai/DeepSeek-V3.2', answer);
    expect(vllm.content).toBe(answer);
    expect(vllm.reasoning_content).toBeUndefined();
  });
});
