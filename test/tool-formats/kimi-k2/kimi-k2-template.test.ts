/** The kimi-k2 family's prompt against what Kimi K2 Thinking's own chat template writes (fixture: test/fixtures/kimi-k2-rendered-prompts/). */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ChatRequest, Message, ToolChoice } from '../../../src/core/index.js';
import { RequestCaches } from '../../../src/core/request-caches.js';
import { preparePromptedRequest } from '../../../src/pipeline/prepare-prompted-request.js';
import { ToolPromptCache } from '../../../src/pipeline/tool-prompt-cache.js';
import { fidelityMessages, fidelityTools } from '../../helpers/prompt-fidelity/fidelity-conversation.js';
import { familyUnderTest } from '../helpers/family-table.js';

const native = readFileSync(new URL('../../fixtures/kimi-k2-rendered-prompts/tool-conversation.txt', import.meta.url), 'utf8');
const { format, parse, call } = familyUnderTest('kimi-k2');

function preparedMessages(messages: Message[], toolChoice: ToolChoice = { type: 'auto' }): Message[] {
  const request: ChatRequest = {
    model: { id: 'local/m', provider: 'local', providerType: 'openai-compatible', model: 'm', family: 'kimi-k2', toolCalling: 'prompted' },
    messages,
    tools: fidelityTools,
    toolChoice,
  };
  return preparePromptedRequest(request, format, new ToolPromptCache(new RequestCaches())).request.messages;
}

const textOfMessage = (message: Message) =>
  typeof message.content === 'string' ? message.content : message.content.map((part) => (part.type === 'text' ? part.text : '')).join('');

/**
 * A message as the template writes it in the history: `set_roles` (`<|im_system|>`, `<|im_user|>` or
 * `<|im_assistant|>`, the role, `<|im_middle|>`), `<think></think>` before an assistant's content, `<|im_end|>`.
 */
function templateTurn(message: Message): string {
  const opening = { system: '<|im_system|>', user: '<|im_user|>', assistant: '<|im_assistant|>', tool: '<|im_system|>' }[message.role];
  return `${opening}${message.role}<|im_middle|>${message.role === 'assistant' ? '<think></think>' : ''}${textOfMessage(message)}<|im_end|>`;
}

/** The template's turns, each from its opening token to its `<|im_end|>`. */
function turns(prompt: string): string[] {
  return prompt.match(/<\|im_(?:system|user|assistant)\|>[\s\S]*?<\|im_end\|>/g) ?? [];
}

describe('kimi-k2: the prompt against Kimi K2 Thinking’s template', () => {
  const gateway = preparedMessages(fidelityMessages);
  const template = turns(native);

  it('writes the template’s tool_declare turn byte for byte, after the system turn instead of before it', () => {
    expect(template[0]).toMatch(/^<\|im_system\|>tool_declare<\|im_middle\|>\[\{"type": "function"/);
    expect(templateTurn(gateway[0]!)).toBe(template[1]! + template[0]!);
  });

  it('puts a tool-choice rule after the system text, before the declaration', () => {
    const system = textOfMessage(preparedMessages(fidelityMessages, { type: 'required' })[0]!);
    expect(system).toMatch(
      /^You are a concise travel assistant\.\n\nYou must call at least one tool in this reply; [^\n]*<\|im_end\|><\|im_system\|>tool_declare<\|im_middle\|>\[/,
    );
  });

  it('writes the call turn byte for byte', () => {
    expect(template[3]).toContain('functions.get_weather:1');
    expect(templateTurn(gateway[2]!)).toBe(template[3]);
  });

  it('writes each result in a turn of its own with the template’s words, a user turn where the template writes a tool turn', () => {
    const results = gateway.slice(3, 5).map(textOfMessage);
    expect(results.map((text) => `<|im_system|>tool<|im_middle|>${text}<|im_end|>`)).toEqual(template.slice(4, 6));
    expect(gateway.slice(3, 5).map((message) => message.role)).toEqual(['user', 'user']);
    expect(gateway.slice(5).map(templateTurn)).toEqual(template.slice(6));
  });

  it('reads back the calls it writes in the history', () => {
    expect(parse(textOfMessage(gateway[2]!))).toEqual([
      call('get_weather', { city: 'Paris', unit: 'celsius' }, 'functions.get_weather:0'),
      call('get_weather', { city: 'Tokyo', unit: 'celsius' }, 'functions.get_weather:1'),
    ]);
  });
});
