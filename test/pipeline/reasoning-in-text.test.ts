/**
 * The reasoning the model's template keeps, written into the turns' text for a server that takes no
 * reasoning field: only the kept turns, in each family's layout (its template's, cited in the family's
 * file), and the history untouched (the same array) when no kept turn has reasoning.
 */
import { describe, expect, it } from 'vitest';
import type { ChatRequest, Message } from '../../src/core/index.js';
import type { ServerKind } from '../../src/core/server-kind.js';
import { RequestCaches } from '../../src/core/request-caches.js';
import { preparePromptedRequest } from '../../src/pipeline/prepare-prompted-request.js';
import { withReasoningInText } from '../../src/pipeline/reasoning-in-text.js';
import { ToolPromptCache } from '../../src/pipeline/tool-prompt-cache.js';
import { createToolFormatRegistry } from '../../tool-formats/index.js';

const registry = createToolFormatRegistry();
const weather = { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } };
const bracket = (reasoning: string, text: string) => `[${reasoning}]${text}`;

describe('withReasoningInText', () => {
  const history: Message[] = [
    { role: 'user', content: [{ type: 'text', text: 'Hi' }] },
    {
      role: 'assistant',
      content: [
        { type: 'reasoning', text: 'early' },
        { type: 'text', text: 'Hello' },
      ],
    },
    { role: 'user', content: [{ type: 'text', text: 'And now?' }] },
    {
      role: 'assistant',
      content: [
        { type: 'reasoning', text: 'late ' },
        { type: 'reasoning', text: 'plan' },
        { type: 'text', text: 'Now' },
      ],
    },
  ];

  it('writes the reasoning of the turns after the index into their text, leaving the others as they are', () => {
    const written = withReasoningInText(history, bracket, 2);
    expect(written[1]).toBe(history[1]);
    expect(written[3]).toEqual({ role: 'assistant', content: [{ type: 'text', text: '[late plan]Now' }] });
  });

  it('returns the same array when no turn after the index has reasoning', () => {
    const withoutReasoning = history.slice(0, 1);
    expect(withReasoningInText(withoutReasoning, bracket, -1)).toBe(withoutReasoning);
    expect(withReasoningInText(history, bracket, 3)).toBe(history);
  });
});

function prepare(family: string, server: ServerKind | undefined, messages: Message[]): Message[] {
  const model = {
    id: 'local/m',
    provider: 'local',
    providerType: 'openai-compatible',
    model: 'm',
    family,
    toolCalling: 'prompted' as const,
  };
  const request: ChatRequest = { model: server ? { ...model, server } : model, messages, tools: [weather], toolChoice: { type: 'auto' } };
  return preparePromptedRequest(request, registry.get(family)!, new ToolPromptCache(new RequestCaches())).request.messages;
}

function assistantTexts(messages: Message[]): string[] {
  return messages.flatMap((message) =>
    message.role === 'assistant' ? [message.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('')] : [],
  );
}

describe('the prompted lane for a server that takes no reasoning field', () => {
  // GLM's template keeps the reasoning after the last user message: in the text history, where results
  // are user turns, only a last assistant turn (one the model is to continue).
  const continued: Message[] = [
    { role: 'user', content: [{ type: 'text', text: 'Weather in Paris?' }] },
    {
      role: 'assistant',
      content: [
        { type: 'reasoning', text: 'Call the tool.' },
        { type: 'tool-call', id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
      ],
    },
    { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'call_1', toolName: 'get_weather', output: 'Sunny' }] },
    {
      role: 'assistant',
      content: [
        { type: 'reasoning', text: '\nIt is sunny.\n' },
        { type: 'text', text: 'It is' },
      ],
    },
  ];

  it("writes GLM's block into the kept turn only, as glm_4_5.jinja renders it", () => {
    const [callTurn, lastTurn] = assistantTexts(prepare('glm', 'lmstudio', continued));
    expect(callTurn).not.toContain('Call the tool.');
    expect(lastTurn).toBe('<think>It is sunny.</think>\nIt is');
  });

  it("writes MiniMax-M2's block as unsloth-MiniMax-M2.jinja renders it", () => {
    expect(assistantTexts(prepare('minimax-m2', 'generic', continued)).at(-1)).toBe('<think>\nIt is sunny.\n</think>\n\nIt is');
  });

  it('leaves it to the field for a server that takes one, and writes nothing for families whose template refuses it in the text or was not checked', () => {
    for (const [family, server] of [
      ['glm', 'llama.cpp'],
      ['minimax-m2', 'vllm'],
      ['harmony', 'lmstudio'],
      ['kimi-k2', 'lmstudio'],
      ['qwen3-coder', 'lmstudio'],
    ] as const)
      expect(assistantTexts(prepare(family, server, continued)).join('')).not.toContain('sunny.');
  });
});
