/** The deepseek-v4 prompt equals, byte for byte, what DeepSeek V4's own encoder writes (test/fixtures/deepseek-v4-rendered-prompts/). */
// The gateway's side is the real prompted preparation and the body the openai-compatible provider sends
// vLLM (its messages, the reasoning replayed as `reasoning`, its chat-template kwargs), rendered with no
// tools as vLLM renders plain turns for V4 (the fake servers' deepseek-v4 template). The gold prompt is
// encoded with tools on the system message, which makes `encode_messages` keep every turn's thinking
// (`effective_drop_thinking` false): `<think>` after every user turn and each turn's reasoning before
// `</think>` in thinking mode; in chat mode no reasoning and `</think>` after every user turn.
import { readFileSync } from 'node:fs';
import { Template } from '@huggingface/jinja';
import { describe, expect, it } from 'vitest';
import { buildOpenAiRequestBody } from '../../../providers/openai/build-openai-request-body.js';
import type { ChatRequest, Message } from '../../../src/core/index.js';
import { RequestCaches } from '../../../src/core/request-caches.js';
import { preparePromptedRequest } from '../../../src/pipeline/prepare-prompted-request.js';
import { ToolPromptCache } from '../../../src/pipeline/tool-prompt-cache.js';
import { createToolFormatRegistry } from '../../../tool-formats/index.js';
import { renderDeepSeekV4Request, type EncoderMessage } from '../../helpers/prompt-fidelity/deepseek-v4-encoding.js';
import { encoderConversation, encoderTools } from './dsv4-encoder-conversation.js';

const gold = readFileSync(new URL('../../fixtures/deepseek-v4-rendered-prompts/test_output_1.txt', import.meta.url), 'utf8');
const serverTemplate = new Template(
  readFileSync(new URL('../../fixtures/fake-server-templates/deepseek-v4.model.jinja', import.meta.url), 'utf8'),
);
const format = createToolFormatRegistry().get('deepseek-v4')!;
const reasonings = encoderConversation.flatMap((message) =>
  message.role === 'assistant' ? message.content.flatMap((part) => (part.type === 'reasoning' ? [part.text] : [])) : [],
);

/** The gold prompt as the encoder writes it in chat mode: no reasoning, `</think>` after every user turn. */
function goldInChatMode(): string {
  return reasonings.reduce((prompt, reasoning) => prompt.replaceAll(`<think>${reasoning}</think>`, '</think>'), gold);
}

/** What vLLM is sent for the conversation in the prompted lane, and the prompt its V4 encoder writes from it. */
function sentToVllm(messages: Message[], thinking: boolean, tools = format): { body: Record<string, unknown>; prompt: string } {
  const request: ChatRequest = {
    model: {
      id: 'local/deepseek-ai/DeepSeek-V4-Flash',
      provider: 'local',
      providerType: 'openai-compatible',
      model: 'deepseek-ai/DeepSeek-V4-Flash',
      family: 'deepseek-v4',
      toolCalling: 'prompted',
      server: 'vllm',
    },
    messages,
    tools: encoderTools,
    toolChoice: { type: 'auto' },
    openaiExtras: { chat_template_kwargs: { thinking } },
  };
  const prepared = preparePromptedRequest(request, tools, new ToolPromptCache(new RequestCaches())).request;
  const body = buildOpenAiRequestBody(prepared, 'openai-compatible');
  const prompt = serverTemplate.render({
    messages: body.messages,
    bos_token: '<｜begin▁of▁sentence｜>',
    eos_token: '<｜end▁of▁sentence｜>',
    ...(body.chat_template_kwargs as Record<string, unknown>),
  });
  return { body, prompt };
}

function gatewayPrompt(messages: Message[], thinking: boolean, tools = format): string {
  return sentToVllm(messages, thinking, tools).prompt;
}

describe('deepseek-v4: the prompt of a tool conversation', () => {
  it("equals DeepSeek's encoder byte for byte in thinking mode: tool block, call section, <tool_result> user turn, every turn's reasoning", () => {
    expect(reasonings).toHaveLength(2);
    for (const reasoning of reasonings) expect(gold).toContain(`<｜Assistant｜><think>${reasoning}</think>`);
    expect(gatewayPrompt(encoderConversation, true)).toBe(gold);
  });

  it('asks vLLM to keep the thinking, as the encoder does with tools declared, and replays it as `reasoning`', () => {
    const { body } = sentToVllm(encoderConversation, true);
    expect(body.chat_template_kwargs).toEqual({ drop_thinking: false, thinking: true });
    const assistants = (body.messages as Record<string, unknown>[]).filter((message) => message.role === 'assistant');
    expect(assistants.map((message) => message.reasoning)).toEqual(reasonings);
    expect(assistants.some((message) => 'reasoning_content' in message)).toBe(false);
  });

  it("renders the same through the port of the encoder (the fidelity measure's reference) as through the fake server's template", () => {
    for (const thinking of [true, false]) {
      const { body, prompt } = sentToVllm(encoderConversation, thinking);
      const kwargs = body.chat_template_kwargs as Record<string, unknown>;
      expect(renderDeepSeekV4Request(body.messages as EncoderMessage[], undefined, kwargs)).toBe(prompt);
    }
  });

  it('equals it in chat mode: </think> after every user turn', () => {
    expect(gatewayPrompt(encoderConversation, false)).toBe(goldInChatMode());
  });

  // encoding_dsv4.py's render_message writes a system message as `{content}` (None as "") and then
  // `"\n\n" + render_tools(tools)`; vLLM's deepseek_v4 tokenizer puts a request's tools on an inserted
  // `{"role": "system", "tools": tools}` when the conversation has no leading system message.
  it('opens with the blank line before the tool block when there is no system text', () => {
    const systemText = 'You are a helpful assistant.';
    const bos = '<｜begin▁of▁sentence｜>';
    const expected = goldInChatMode();
    expect(expected.startsWith(`${bos}${systemText}\n\n## Tools`)).toBe(true);
    const [, ...rest] = encoderConversation;
    expect(gatewayPrompt(rest, false)).toBe(`${bos}${expected.slice(bos.length + systemText.length)}`);
  });

  it("writes results that end the conversation as the user turn the encoder's merge_tool_messages makes", () => {
    const prompt = gatewayPrompt(encoderConversation.slice(0, 4), false);
    const results = '<｜User｜><tool_result>';
    const expected = goldInChatMode();
    expect(prompt).toBe(`${expected.slice(0, expected.indexOf('<｜Assistant｜>', expected.indexOf(results)))}<｜Assistant｜></think>`);
  });

  it('joins parallel results, and the question after them, with blank lines in one user turn', () => {
    const [system, question] = encoderConversation;
    const calls: Message = {
      role: 'assistant',
      content: [
        { type: 'tool-call', id: 'a', name: 'get_weather', arguments: '{"location": "Paris"}' },
        { type: 'tool-call', id: 'b', name: 'search', arguments: '{"query": "Paris", "num_results": 2}' },
      ],
    };
    const results: Message = {
      role: 'tool',
      content: [
        { type: 'tool-result', toolCallId: 'a', output: 'RA' },
        { type: 'tool-result', toolCallId: 'b', output: 'RB' },
      ],
    };
    const followUp: Message = { role: 'user', content: [{ type: 'text', text: 'And tomorrow?' }] };
    const prompt = gatewayPrompt([system!, question!, calls, results, followUp], false);
    expect(prompt.slice(prompt.indexOf('<｜Assistant｜></think>\n\n'))).toBe(
      '<｜Assistant｜></think>\n\n<｜DSML｜tool_calls>\n' +
        '<｜DSML｜invoke name="get_weather">\n<｜DSML｜parameter name="location" string="true">Paris</｜DSML｜parameter>\n</｜DSML｜invoke>\n' +
        '<｜DSML｜invoke name="search">\n<｜DSML｜parameter name="query" string="true">Paris</｜DSML｜parameter>\n' +
        '<｜DSML｜parameter name="num_results" string="false">2</｜DSML｜parameter>\n</｜DSML｜invoke>\n' +
        '</｜DSML｜tool_calls><｜end▁of▁sentence｜>' +
        '<｜User｜><tool_result>RA</tool_result>\n\n<tool_result>RB</tool_result>\n\nAnd tomorrow?<｜Assistant｜></think>',
    );
  });

  it("reads back the call of the model's turn in the gold prompt", () => {
    const replyStart = gold.indexOf('<｜Assistant｜><think>') + '<｜Assistant｜><think>'.length;
    const reply = gold.slice(replyStart, gold.indexOf('<｜User｜>', replyStart));
    const parser = format.createParser(encoderTools, { startsInReasoning: true });
    const events = [...parser.push(reply), ...parser.finish()];
    expect(events.filter((event) => event.type !== 'text')).toEqual([
      { type: 'reasoning', text: reasonings[0] },
      { type: 'tool-call', name: 'get_weather', arguments: '{"location":"Beijing","unit":"celsius"}' },
    ]);
  });

  // V4.1's encoder (vLLM's deepseek_v41_encoding.py) writes the same tool block, call turns and results
  // with its tag names ` calls`, ` invoke` and ` parameter`.
  // V4.1's tokenizer (vLLM's deepseek_v41.py) also reads `drop_thinking` from the kwargs, and its encoder
  // also keeps the thinking once tools are declared.
  it.each([
    ['chat', false],
    ['thinking', true],
  ] as const)('writes the same for deepseek-v41 but for its spaced DSML tags (%s mode)', (_mode, thinking) => {
    const v41 = createToolFormatRegistry().get('deepseek-v41')!;
    const spaced = (thinking ? gold : goldInChatMode())
      .replaceAll('｜DSML｜tool_calls>', '｜DSML｜ calls>')
      .replaceAll('｜DSML｜invoke', '｜DSML｜ invoke')
      .replaceAll('｜DSML｜parameter', '｜DSML｜ parameter');
    expect(gatewayPrompt(encoderConversation, thinking, v41)).toBe(spaced);
  });
});
