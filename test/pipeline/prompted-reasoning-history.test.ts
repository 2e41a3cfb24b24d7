/**
 * The prompted lane's text history keeps the reasoning Qwen3's own template keeps: rendered by Qwen3's
 * template (the tokenizer package's tokenizer_config.json), the call turn of the task in progress shows
 * its `<think>` block as it does over the native conversation, and an answered turn's reasoning shows in
 * neither. The server is SGLang, which hands `reasoning_content` to the template and renders the prompted
 * history as text; LM Studio, which takes no reasoning field, gets the same block in the turn's text.
 */
import { describe, expect, it } from 'vitest';
import type { ChatRequest, Message } from '../../src/core/index.js';
import { RequestCaches } from '../../src/core/request-caches.js';
import { preparePromptedRequest } from '../../src/pipeline/prepare-prompted-request.js';
import { ToolPromptCache } from '../../src/pipeline/tool-prompt-cache.js';
import { createToolFormatRegistry } from '../../tool-formats/index.js';
import { buildOpenAiRequestBody } from '../../providers/openai/build-openai-request-body.js';
import { convertToOpenAiMessages, type OpenAiMessage } from '../../providers/openai/convert-to-openai-messages.js';
import { loadChatTemplates } from '../helpers/prompt-fidelity/chat-template-catalogue.js';
import { renderChatTemplate } from '../helpers/prompt-fidelity/render-chat-template.js';
import { fidelityTools } from '../helpers/prompt-fidelity/fidelity-conversation.js';

const answered = 'The user wants a greeting.';
const plan = 'Plan: Paris first, then Tokyo.';
const call = { type: 'tool-call' as const, id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' };
const conversation: Message[] = [
  { role: 'user', content: [{ type: 'text', text: 'Say hello.' }] },
  {
    role: 'assistant',
    content: [
      { type: 'reasoning', text: answered },
      { type: 'text', text: 'Hello!' },
    ],
  },
  { role: 'user', content: [{ type: 'text', text: 'What is the weather in Paris?' }] },
  { role: 'assistant', content: [{ type: 'reasoning', text: plan }, call] },
  { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'call_1', output: 'sunny, 18 degrees' }] },
];

const qwen3 = loadChatTemplates().entries.find((entry) => entry.name === 'Qwen3');

/** The template's variables as a server hands them: arguments parsed into objects, null content as text. */
function asServerHandsThem(messages: OpenAiMessage[]): OpenAiMessage[] {
  return messages.map((message) => {
    const calls = message['tool_calls'] as { function: { arguments: string } }[] | undefined;
    const withArguments = calls
      ? {
          ...message,
          tool_calls: calls.map((one) => ({
            ...one,
            function: { ...one.function, arguments: JSON.parse(one.function.arguments) as unknown },
          })),
        }
      : message;
    return { ...withArguments, content: message['content'] ?? '' };
  });
}

describe("Qwen3's template over the prompted lane's history", () => {
  it('shows the call turn’s reasoning, as over the native conversation, and not the answered one’s', () => {
    expect(qwen3).toBeDefined();
    const entry = qwen3!;
    const native = renderChatTemplate(
      entry,
      asServerHandsThem(convertToOpenAiMessages(conversation, { reasoningField: 'reasoning_content' })),
      fidelityTools.map((tool) => ({ type: 'function', function: tool })),
    );
    const request: ChatRequest = {
      model: {
        id: 'local/Qwen3-8B',
        provider: 'local',
        providerType: 'openai-compatible',
        model: 'Qwen3-8B',
        family: 'hermes',
        toolCalling: 'prompted',
        server: 'sglang',
      },
      messages: conversation,
      tools: fidelityTools,
      toolChoice: { type: 'auto' },
    };
    const format = createToolFormatRegistry().get('hermes')!;
    const prepared = preparePromptedRequest(request, format, new ToolPromptCache(new RequestCaches())).request;
    const sent = buildOpenAiRequestBody(prepared, 'openai-compatible').messages as OpenAiMessage[];
    const gateway = renderChatTemplate(entry, asServerHandsThem(sent), undefined);

    const thinkBlock = `<think>\n${plan}\n</think>`;
    expect(native).toContain(thinkBlock);
    expect(gateway).toContain(thinkBlock);
    for (const prompt of [native, gateway]) expect(prompt).not.toContain(answered);
  });

  it('gets the kept reasoning written into the call turn’s text from a server that takes no reasoning field, rendering the same prompt', () => {
    const entry = qwen3!;
    const sentTo = (server: 'sglang' | 'lmstudio') => {
      const request: ChatRequest = {
        model: {
          id: 'local/Qwen3-8B',
          provider: 'local',
          providerType: 'openai-compatible',
          model: 'Qwen3-8B',
          family: 'hermes',
          toolCalling: 'prompted',
          server,
        },
        messages: conversation,
        tools: fidelityTools,
        toolChoice: { type: 'auto' },
      };
      const format = createToolFormatRegistry().get('hermes')!;
      const prepared = preparePromptedRequest(request, format, new ToolPromptCache(new RequestCaches())).request;
      return buildOpenAiRequestBody(prepared, 'openai-compatible').messages as OpenAiMessage[];
    };
    const lmStudio = sentTo('lmstudio');
    const callTurn = lmStudio.find((message) => message['role'] === 'assistant' && String(message['content']).includes('<tool_call>'));
    // Written as the template writes it, for a server whose template would not read it back out of the text.
    expect(callTurn?.['content']).toMatch(new RegExp(`^<think>\\n${plan}\\n</think>\\n\\n<tool_call>`));
    expect(JSON.stringify(lmStudio)).not.toContain(answered);
    // Qwen3's template splits the block back out at `</think>`: the prompt is the one the field gives.
    expect(renderChatTemplate(entry, asServerHandsThem(lmStudio), undefined)).toBe(
      renderChatTemplate(entry, asServerHandsThem(sentTo('sglang')), undefined),
    );
  });
});
