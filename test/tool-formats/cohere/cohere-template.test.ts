/** The cohere family's prompt against what Command R7B's own tool-use template writes (fixture: test/fixtures/cohere-rendered-prompts/). */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ChatRequest, Message } from '../../../src/core/index.js';
import { RequestCaches } from '../../../src/core/request-caches.js';
import { preparePromptedRequest } from '../../../src/pipeline/prepare-prompted-request.js';
import { ToolPromptCache } from '../../../src/pipeline/tool-prompt-cache.js';
import { fidelityMessages, fidelityTools } from '../../helpers/prompt-fidelity/fidelity-conversation.js';
import { familyUnderTest } from '../helpers/family-table.js';

const native = readFileSync(new URL('../../fixtures/cohere-rendered-prompts/tool-conversation.txt', import.meta.url), 'utf8');
const { format, parse, call } = familyUnderTest('cohere');

const request: ChatRequest = {
  model: { id: 'local/m', provider: 'local', providerType: 'openai-compatible', model: 'm', family: 'cohere', toolCalling: 'prompted' },
  messages: fidelityMessages,
  tools: fidelityTools,
  toolChoice: { type: 'auto' },
};
const gateway = preparePromptedRequest(request, format, new ToolPromptCache(new RequestCaches())).request.messages;

const textOf = (message: Message) =>
  typeof message.content === 'string' ? message.content : message.content.map((part) => (part.type === 'text' ? part.text : '')).join('');

/** The text from `start` (included) to `end` (included), from `from` on. */
function between(text: string, start: string, end: string, from = 0): string {
  const at = text.indexOf(start, from);
  return text.slice(at, text.indexOf(end, at) + end.length);
}

describe('cohere: the prompt against Command R7B’s tool-use template', () => {
  it('writes the template’s tool-use section and tool list byte for byte, after the system text', () => {
    const section = between(native, 'You have been trained to have advanced reasoning', '\n]\n```');
    expect(section).toContain('"name": "search_hotels"');
    expect(textOf(gateway[0]!)).toBe(`You are a concise travel assistant.\n\n${section}`);
  });

  it('writes the calls as the template’s action, byte for byte', () => {
    const action = between(native, '<|START_ACTION|>', '<|END_ACTION|>', native.indexOf('<|CHATBOT_TOKEN|><|START_THINKING|>'));
    expect(textOf(gateway[2]!)).toBe(action);
    expect(parse(action)).toEqual([
      call('get_weather', { city: 'Paris', unit: 'celsius' }, '0'),
      call('get_weather', { city: 'Tokyo', unit: 'celsius' }, '1'),
    ]);
  });

  it('writes the results as the template’s result list, byte for byte, in a user turn', () => {
    expect(gateway[3]!.role).toBe('user');
    expect(textOf(gateway[3]!)).toBe(
      between(native, '<|START_TOOL_RESULT|>', '<|END_TOOL_RESULT|>', native.indexOf('<|SYSTEM_TOKEN|><|START_TOOL_RESULT|>')),
    );
  });
});
