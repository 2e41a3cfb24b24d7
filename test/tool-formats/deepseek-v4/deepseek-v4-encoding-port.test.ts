/** The TypeScript port of DeepSeek V4's encoder (the fidelity measure's reference for V4) writes the encoder's gold prompt. */
// The gold prompt (test/fixtures/deepseek-v4-rendered-prompts/test_output_1.txt) is the encoder's test case 1:
// tools on the system message, thinking mode; the port must write it byte for byte from the same
// conversation, as vLLM hands it over (the request's tools put on the system message).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { convertToOpenAiMessages } from '../../../providers/openai/convert-to-openai-messages.js';
import { renderDeepSeekV4Request, type EncoderMessage } from '../../helpers/prompt-fidelity/deepseek-v4-encoding.js';
import { encoderConversation, encoderTools } from './dsv4-encoder-conversation.js';

const gold = readFileSync(new URL('../../fixtures/deepseek-v4-rendered-prompts/test_output_1.txt', import.meta.url), 'utf8');
const messages = convertToOpenAiMessages(encoderConversation, { reasoningField: 'reasoning' }) as EncoderMessage[];
const tools = encoderTools.map((tool) => ({
  type: 'function',
  function: { name: tool.name, description: tool.description, parameters: tool.parameters },
}));

describe("the port of DeepSeek V4's encoder", () => {
  it('writes the gold prompt from its conversation in thinking mode (the default), every turn thinking with tools declared', () => {
    expect(renderDeepSeekV4Request(messages, tools)).toBe(gold);
    expect(renderDeepSeekV4Request(messages, tools, { thinking: true, drop_thinking: true })).toBe(gold);
  });

  it("writes no reasoning in chat mode, and only the last turn's thinking without tools", () => {
    const turns = (prompt: string) => prompt.slice(prompt.indexOf('<｜User｜>'));
    const chat = turns(renderDeepSeekV4Request(messages, tools, { thinking: false }));
    expect(chat).not.toContain('<think>');
    expect(chat.split('<｜Assistant｜></think>')).toHaveLength(3);
    const withoutTools = turns(renderDeepSeekV4Request(messages, undefined, {}));
    expect(withoutTools).not.toContain('## Tools');
    // The first question is before the last user turn (the results): its answer's reasoning is dropped.
    expect(withoutTools.match(/<think>/g)).toHaveLength(1);
  });
});
