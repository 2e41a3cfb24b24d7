/** The deepseek-v32 prompt equals, byte for byte, what DeepSeek V3.2's own encoder writes (gold prompt in test/fixtures/deepseek-v32-rendered-prompts/). */
// The gateway's side is the real prompted preparation, converted as the openai-compatible provider
// converts it, and rendered with no tools as vLLM renders plain turns for V3.2 (the fake servers'
// deepseek-v32 template, in thinking mode as the gold prompt was encoded, and in chat mode).
import { readFileSync } from 'node:fs';
import { Template } from '@huggingface/jinja';
import { describe, expect, it } from 'vitest';
import { convertToOpenAiMessages } from '../../../providers/openai/convert-to-openai-messages.js';
import type { ChatRequest, Message } from '../../../src/core/index.js';
import { RequestCaches } from '../../../src/core/request-caches.js';
import { preparePromptedRequest } from '../../../src/pipeline/prepare-prompted-request.js';
import { ToolPromptCache } from '../../../src/pipeline/tool-prompt-cache.js';
import { createToolFormatRegistry } from '../../../tool-formats/index.js';
import { encoderConversation, encoderTools, followUpQuestion } from './dsv32-encoder-conversation.js';

const gold = readFileSync(new URL('../../fixtures/deepseek-v32-rendered-prompts/test_output.txt', import.meta.url), 'utf8');
const serverTemplate = new Template(
  readFileSync(new URL('../../fixtures/fake-server-templates/deepseek-v32.model.jinja', import.meta.url), 'utf8'),
);
const format = createToolFormatRegistry().get('deepseek-v32')!;

/** The follow-up question's turn as the encoder opens the reply after it. */
const followUpTurn = `<｜User｜>${followUpQuestion}<｜Assistant｜>`;
/** The gold prompt up to the model's reply to the follow-up question (without its opening token). */
const goldBeforeReply = gold.slice(0, gold.indexOf(followUpTurn) + followUpTurn.length);

function gatewayPrompt(messages: Message[], thinking: boolean): string {
  const request: ChatRequest = {
    model: {
      id: 'local/deepseek-ai/DeepSeek-V3.2',
      provider: 'local',
      providerType: 'openai-compatible',
      model: 'deepseek-ai/DeepSeek-V3.2',
      family: 'deepseek-v32',
      toolCalling: 'prompted',
    },
    messages,
    tools: encoderTools,
    toolChoice: { type: 'auto' },
  };
  const prepared = preparePromptedRequest(request, format, new ToolPromptCache(new RequestCaches())).request;
  return serverTemplate.render({
    messages: convertToOpenAiMessages(prepared.messages),
    bos_token: '<｜begin▁of▁sentence｜>',
    eos_token: '<｜end▁of▁sentence｜>',
    thinking,
  });
}

describe('deepseek-v32: the prompt of a tool conversation', () => {
  it("equals DeepSeek's encoder byte for byte in thinking mode: tool block, calls, parallel calls, results after the end of sentence, reasoning dropped", () => {
    expect(goldBeforeReply).toContain('<function_results>');
    expect(gatewayPrompt(encoderConversation, true)).toBe(`${goldBeforeReply}<think>`);
  });

  it('differs in chat mode only where the encoder does: </think> after the last question', () => {
    // encoding_dsv32.py writes `<think>` only after the last user message in thinking mode; before it
    // both modes are the same, and no reasoning is shown.
    expect(gatewayPrompt(encoderConversation, false)).toBe(`${goldBeforeReply}</think>`);
  });

  // encoding_dsv32.py's render_message writes a system message as `{content}` (None as "") and then
  // `"\n\n" + render_tools(tools)`; vLLM's deepseek_v32 tokenizer puts a request's tools on an inserted
  // `{"role": "system"}`, so without system text the prompt opens with the blank line.
  it('opens with the blank line before the tool block when there is no system text, absent or empty', () => {
    const systemText = 'You are a helpful Assistant.';
    const bos = '<｜begin▁of▁sentence｜>';
    expect(goldBeforeReply.startsWith(`${bos}${systemText}\n\n## Tools`)).toBe(true);
    const withoutSystemText = `${bos}${goldBeforeReply.slice(bos.length + systemText.length)}`;
    const [, ...rest] = encoderConversation;
    expect(gatewayPrompt(rest, false)).toBe(`${withoutSystemText}</think>`);
    expect(gatewayPrompt([{ role: 'system', content: '' }, ...rest], false)).toBe(`${withoutSystemText}</think>`);
  });

  it("reads back the calls of the model's reply in the gold prompt", () => {
    const reply = gold.slice(goldBeforeReply.length + '<think>'.length, gold.indexOf('<function_results>', goldBeforeReply.length));
    const parser = format.createParser(encoderTools, { startsInReasoning: true });
    const events = [...parser.push(reply), ...parser.finish()];
    expect(events.filter((event) => event.type !== 'text')).toEqual([
      { type: 'reasoning', text: expect.stringContaining('2024-01-17') },
      { type: 'tool-call', name: 'get_weather', arguments: '{"location":"San Francisco","date":"2024-01-17"}' },
      { type: 'tool-call', name: 'get_weather', arguments: '{"location":"New York","date":"2024-01-17"}' },
    ]);
  });

  it("keeps results that end the conversation a user turn, after the encoder's tool block and call turn", () => {
    const [system, question, calls, results] = encoderConversation;
    const prompt = gatewayPrompt([system!, question!, calls!, results!], false);
    const endOfCallTurn = '<｜end▁of▁sentence｜>';
    const result = '{"current_date": "2024-01-15", "current_time": "14:30:00", "timezone": "America/New_York"}';
    expect(prompt).toBe(
      `${gold.slice(0, gold.indexOf(endOfCallTurn) + endOfCallTurn.length)}<｜User｜><function_results>\n<result>${result}</result>\n</function_results><｜Assistant｜></think>`,
    );
  });
});
