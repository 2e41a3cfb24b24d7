/** Seed-OSS's tool prompt equals, byte for byte, what the model's own chat template writes (fixtures: test/fixtures/seed-oss-rendered-prompts/). */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ChatRequest, Message } from '../../../src/core/index.js';
import { RequestCaches } from '../../../src/core/request-caches.js';
import { preparePromptedRequest } from '../../../src/pipeline/prepare-prompted-request.js';
import { ToolPromptCache } from '../../../src/pipeline/tool-prompt-cache.js';
import { createToolFormatRegistry } from '../../../tool-formats/index.js';
import { fidelityTools } from '../../helpers/prompt-fidelity/fidelity-conversation.js';

const fixture = (name: string) => readFileSync(new URL(`../../fixtures/seed-oss-rendered-prompts/${name}`, import.meta.url), 'utf8');
const format = createToolFormatRegistry().get('seed-oss')!;
const question: Message = { role: 'user', content: [{ type: 'text', text: 'Q' }] };

/** From the first function to the end of the call format block. */
function functionsAndFormat(prompt: string): string {
  const end = '</seed:tool_call>';
  return prompt.slice(prompt.indexOf('Function:\n'), prompt.indexOf(end) + end.length);
}

/**
 * The system turn the server writes for the prompted lane's messages (no tools): the template's
 * `bos_token + "system\n" + system_message`, then `eos_token` (ByteDance-Seed-OSS.jinja).
 */
function gatewaySystemBlock(messages: Message[]): string {
  const request: ChatRequest = {
    model: { id: 'local/m', provider: 'local', providerType: 'openai-compatible', model: 'm', family: 'seed-oss', toolCalling: 'prompted' },
    messages,
    tools: fidelityTools,
    toolChoice: { type: 'auto' },
  };
  const prepared = preparePromptedRequest(request, format, new ToolPromptCache(new RequestCaches())).request.messages;
  const systems = prepared.filter((message) => message.role === 'system');
  expect(systems).toHaveLength(1);
  return `<seed:bos>system\n${systems[0]!.content}<seed:eos>`;
}

describe('seed-oss: the tool list', () => {
  it("writes the functions and the call format as the template does: bare commas, the docstrings' blank line, one newline before the format", () => {
    const prompt = format.renderTools(fidelityTools, { type: 'auto' });
    expect(functionsAndFormat(fixture('system-block.txt'))).toContain('def get_weather(');
    expect(functionsAndFormat(prompt)).toBe(functionsAndFormat(fixture('system-block.txt')));
  });

  it('adds only the functions to a system message, as the template does: no introduction, no word on results', () => {
    expect(gatewaySystemBlock([{ role: 'system', content: 'SYS' }, question])).toBe(fixture('system-block.txt'));
  });

  it("opens a conversation without a system message with the template's own system text", () => {
    expect(gatewaySystemBlock([question])).toBe(fixture('system-block-without-system.txt'));
  });
});
