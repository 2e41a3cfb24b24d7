/** The llama3 family's prompt against what Llama 3.1's own chat template writes (fixture: test/fixtures/llama3-rendered-prompts/). */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ChatRequest, Message } from '../../../src/core/index.js';
import { RequestCaches } from '../../../src/core/request-caches.js';
import { preparePromptedRequest } from '../../../src/pipeline/prepare-prompted-request.js';
import { ToolPromptCache } from '../../../src/pipeline/tool-prompt-cache.js';
import { fidelityMessages, fidelityTools } from '../../helpers/prompt-fidelity/fidelity-conversation.js';
import { familyUnderTest } from '../helpers/family-table.js';

const native = readFileSync(new URL('../../fixtures/llama3-rendered-prompts/tool-conversation.txt', import.meta.url), 'utf8');
const { format, parse, call } = familyUnderTest('llama3');

function preparedMessages(messages: Message[]): Message[] {
  const request: ChatRequest = {
    model: { id: 'local/m', provider: 'local', providerType: 'openai-compatible', model: 'm', family: 'llama3', toolCalling: 'prompted' },
    messages,
    tools: fidelityTools,
    toolChoice: { type: 'auto' },
  };
  return preparePromptedRequest(request, format, new ToolPromptCache(new RequestCaches())).request.messages;
}

/** A message as the template writes one that is neither a call nor a result: `'<|start_header_id|>' + role + '<|end_header_id|>\n\n' + content | trim + '<|eot_id|>'`. */
function templateTurn(message: Message): string {
  const text =
    typeof message.content === 'string' ? message.content : message.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
  return `<|start_header_id|>${message.role}<|end_header_id|>\n\n${text.trim()}<|eot_id|>`;
}

/** The template's turns, each from its header to its `<|eot_id|>`. */
function turns(prompt: string): string[] {
  return prompt.match(/<\|start_header_id\|>[\s\S]*?<\|eot_id\|>/g) ?? [];
}

describe('llama3: the prompt against Meta’s Llama 3.1 template', () => {
  const gateway = preparedMessages(fidelityMessages).map(templateTurn);
  const template = turns(native);

  it('opens the first user message with the template’s words and tools, byte for byte', () => {
    expect(template[1]).toContain('"name": "search_hotels"');
    expect(gateway[1]).toBe(template[1]);
  });

  it('writes parallel calls as the template writes single ones: one assistant turn each', () => {
    expect(template[2]).toContain('"Paris"');
    expect(gateway.slice(2, 4)).toEqual(template.slice(2, 4));
  });

  it('writes one user turn per result, where the template writes one ipython turn per result', () => {
    expect(template.slice(4, 6).every((turn) => turn.startsWith('<|start_header_id|>ipython'))).toBe(true);
    expect(gateway.slice(4, 6)).toEqual([
      '<|start_header_id|>user<|end_header_id|>\n\n{"name": "get_weather", "output": "{\\"temperature\\": 18, \\"condition\\": \\"sunny\\"}"}<|eot_id|>',
      '<|start_header_id|>user<|end_header_id|>\n\n{"name": "get_weather", "output": "{\\"temperature\\": 24, \\"condition\\": \\"cloudy\\"}"}<|eot_id|>',
    ]);
    expect(gateway.slice(6)).toEqual(template.slice(6));
  });

  it('keeps the system text first, with only the family’s call and result conventions after it', () => {
    const system = preparedMessages(fidelityMessages)[0]!;
    expect(system.role).toBe('system');
    expect(system.content).toMatch(/^You are a concise travel assistant\.\n\nTo call several functions/);
    expect(system.content).not.toContain('get_weather');
  });

  it('reads back a call as it writes it in the history', () => {
    const callTurn = gateway[3]!;
    const callText = callTurn.slice(callTurn.indexOf('\n\n') + 2, -'<|eot_id|>'.length);
    expect(parse(callText)).toEqual([call('get_weather', { city: 'Tokyo', unit: 'celsius' })]);
  });
});
