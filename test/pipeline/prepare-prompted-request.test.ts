/** The prompted lane's request: text rendering by default, the server's own template where it can, special tokens named. */
import { describe, expect, it } from 'vitest';
import type { ChatRequest, Message, ToolChoice, ToolDefinition } from '../../src/core/index.js';
import type { ServerKind } from '../../src/core/server-kind.js';
import { RequestCaches } from '../../src/core/request-caches.js';
import { preparePromptedRequest } from '../../src/pipeline/prepare-prompted-request.js';
import { ToolPromptCache } from '../../src/pipeline/tool-prompt-cache.js';
import { createToolFormatRegistry } from '../../tool-formats/index.js';

const registry = createToolFormatRegistry();
const weather: ToolDefinition = { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } };
const history: Message[] = [
  { role: 'user', content: [{ type: 'text', text: 'Weather in Paris?' }] },
  { role: 'assistant', content: [{ type: 'tool-call', id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' }] },
  { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'call_1', toolName: 'get_weather', output: 'Sunny' }] },
];

function prepare(family: string, server: ServerKind | undefined, toolChoice?: ToolChoice, tools: ToolDefinition[] = [weather]) {
  const model = {
    id: `local/m`,
    provider: 'local',
    providerType: 'openai-compatible',
    model: 'm',
    family,
    toolCalling: 'prompted' as const,
  };
  const request: ChatRequest = { model: server ? { ...model, server } : model, messages: history, tools, toolChoice };
  return preparePromptedRequest(request, registry.get(family)!, new ToolPromptCache(new RequestCaches()));
}

describe('preparePromptedRequest', () => {
  it('renders tools and history as text for a generic server, naming the family special tokens', () => {
    const { request, parse } = prepare('harmony', 'generic');
    expect(parse).toBe(true);
    expect(request.tools).toBeUndefined();
    expect(request.toolChoice).toBeUndefined();
    expect(request.messages.every((message) => message.role !== 'tool')).toBe(true);
    expect(request.keepSpecialTokens).toEqual([
      '<|start|>',
      '<|channel|>',
      '<|message|>',
      '<|constrain|>',
      '<|end|>',
      '<|call|>',
      '<|return|>',
    ]);
    expect(request.promptedTools).toEqual([weather]);
  });

  it.each(['vllm', 'llama.cpp'] as const)('lets %s render tools and history through the template (tool_choice none)', (server) => {
    const { request, parse } = prepare('hermes', server);
    expect(parse).toBe(true);
    expect(request.tools).toEqual([weather]);
    expect(request.toolChoice).toEqual({ type: 'none' });
    expect(request.messages).toBe(history);
    expect(request.keepSpecialTokens).toEqual([]);
    expect(request.promptedToolChoice).toEqual({ type: 'auto' });
  });

  it.each([
    ['sglang drops tools with tool_choice none', 'hermes', 'sglang', undefined],
    ['an unknown server', 'hermes', undefined, undefined],
    ['a family whose template is lossy', 'kimi-k2', 'vllm', undefined],
    ['a required tool_choice only the text prompt can carry', 'hermes', 'vllm', { type: 'required' }],
    ['a named tool_choice', 'qwen3-coder', 'llama.cpp', { type: 'tool', name: 'get_weather' }],
  ] as const)('keeps the text rendering for %s', (_why, family, server, choice) => {
    const { request } = prepare(family, server, choice);
    expect(request.tools).toBeUndefined();
    expect(request.messages.every((message) => message.role !== 'tool')).toBe(true);
    expect(request.keepSpecialTokens).toBeDefined();
  });

  it('asks for no special tokens without tools to parse', () => {
    expect(prepare('harmony', 'vllm', undefined, []).request.keepSpecialTokens).toBeUndefined();
    expect(prepare('harmony', 'vllm', { type: 'none' }).request.keepSpecialTokens).toBeUndefined();
  });

  // DeepSeek V4's encoder keeps every turn's thinking once a message carries tools; the server, sent none,
  // is told so (ToolFormat.thinkingWithTools).
  it("asks the server to keep a V4-line family's thinking, under the client's own kwargs, only with tools to offer, on vLLM and SGLang", () => {
    const asked = prepare('deepseek-v4', 'vllm').request;
    expect(asked.openaiExtras).toEqual({ chat_template_kwargs: { drop_thinking: false } });
    expect(asked.replayReasoning).toBe(true);
    const model = { id: 'local/m', provider: 'local', providerType: 'openai-compatible', model: 'm', family: 'deepseek-v41' };
    const request: ChatRequest = {
      model: { ...model, toolCalling: 'prompted', server: 'vllm' },
      messages: history,
      tools: [weather],
      openaiExtras: { chat_template_kwargs: { drop_thinking: true, thinking: true }, seed_extra: 1 },
    };
    const clientSaid = preparePromptedRequest(request, registry.get('deepseek-v41')!, new ToolPromptCache(new RequestCaches())).request;
    expect(clientSaid.openaiExtras).toEqual({ chat_template_kwargs: { drop_thinking: true, thinking: true }, seed_extra: 1 });
    const withoutTools = prepare('deepseek-v4', 'vllm', { type: 'none' }).request;
    expect(withoutTools.openaiExtras).toBeUndefined();
    expect(withoutTools.replayReasoning).toBeUndefined();
    expect(prepare('deepseek-v32', 'vllm').request.replayReasoning).toBeUndefined();
    for (const server of ['llama.cpp', 'generic', undefined] as const)
      expect(prepare('deepseek-v4', server).request.openaiExtras).toBeUndefined();
  });
});
