/** The mistral-v7, mistral-v11 and mistral-v13 prompts equal, byte for byte, what the models' own templates render. */
// The native prompts are fixtures rendered by mistral-common's v7, v11 and v13 chat templates (sources in
// test/fixtures/mistral-rendered-prompts/README.md). The gateway's side is the real prompted preparation,
// converted as the openai-compatible provider converts it, and rendered with no tools as the server
// renders it (the fake servers' Mistral template, which renders these plain turns as the real ones do).
import { readFileSync } from 'node:fs';
import { Template } from '@huggingface/jinja';
import { describe, expect, it } from 'vitest';
import { convertToOpenAiMessages } from '../../../providers/openai/convert-to-openai-messages.js';
import type { ChatRequest } from '../../../src/core/index.js';
import { RequestCaches } from '../../../src/core/request-caches.js';
import { preparePromptedRequest } from '../../../src/pipeline/prepare-prompted-request.js';
import { ToolPromptCache } from '../../../src/pipeline/tool-prompt-cache.js';
import { createToolFormatRegistry } from '../../../tool-formats/index.js';
import { tekkenConversation, tekkenTools } from './mistral-tekken-conversation.js';

const serverTemplate = new Template(
  readFileSync(new URL('../../fixtures/fake-server-templates/mistral-small.model.jinja', import.meta.url), 'utf8'),
);

function nativePrompt(version: 'v7' | 'v11' | 'v13'): string {
  return readFileSync(new URL(`../../fixtures/mistral-rendered-prompts/mistral-common-${version}.txt`, import.meta.url), 'utf8');
}

function gatewayPrompt(family: string): string {
  const format = createToolFormatRegistry().get(family);
  if (format === undefined) throw new Error(`no family ${family}`);
  const request: ChatRequest = {
    model: { id: 'local/m', provider: 'local', providerType: 'openai-compatible', model: 'm', family, toolCalling: 'prompted' },
    messages: tekkenConversation,
    tools: tekkenTools,
    toolChoice: { type: 'auto' },
  };
  const { messages } = preparePromptedRequest(request, format, new ToolPromptCache(new RequestCaches())).request;
  return serverTemplate.render({
    messages: convertToOpenAiMessages(messages),
    bos_token: '<s>',
    eos_token: '</s>',
    add_generation_prompt: true,
  });
}

/**
 * The one place a chat API cannot reach: the template writes the tool list between turns, just before
 * an `[INST]`; a message can only hold it just after that `[INST]`.
 */
function withToolListInsideTurn(prompt: string): string {
  const lists = prompt.match(/\[AVAILABLE_TOOLS\].*?\[\/AVAILABLE_TOOLS\]/g) ?? [];
  expect(lists).toHaveLength(1);
  const list = lists[0] ?? '';
  expect(prompt).toContain(`${list}[INST]`);
  return prompt.replace(`${list}[INST]`, `[INST]${list}`);
}

describe.each([
  { family: 'mistral-v7', version: 'v7', turn: 'last' },
  { family: 'mistral-v11', version: 'v11', turn: 'last' },
  { family: 'mistral-v13', version: 'v13', turn: 'first' },
] as const)('$family: the prompt of a tool conversation', ({ family, version, turn }) => {
  it("equals the template's, calls, parallel calls, results and ids byte for byte, the tool list inside the turn it precedes", () => {
    expect(gatewayPrompt(family)).toBe(withToolListInsideTurn(nativePrompt(version)));
  });

  it(`puts the tool list in the ${turn} user turn, as the template does`, () => {
    const prompt = gatewayPrompt(family);
    const questions = [...prompt.matchAll(/\[INST\]/g)].map((match) => match.index);
    const listAt = prompt.indexOf('[AVAILABLE_TOOLS]');
    expect(listAt).toBe((turn === 'first' ? questions[0] : questions.at(-1))! + '[INST]'.length);
  });

  it("reads back the calls the template writes in the model's turn", () => {
    const native = nativePrompt(version);
    const reply = native.slice(native.indexOf('Let me check'), native.indexOf('</s>'));
    const format = createToolFormatRegistry().get(family)!;
    const parser = format.createParser(tekkenTools);
    const events = [...parser.push(reply), ...parser.finish()];
    expect(
      events.filter((event) => event.type === 'tool-call').map((event) => event.type === 'tool-call' && JSON.parse(event.arguments)),
    ).toEqual([
      { city: 'Paris', unit: 'celsius' },
      { city: 'Tokyo', unit: 'celsius' },
    ]);
  });
});
