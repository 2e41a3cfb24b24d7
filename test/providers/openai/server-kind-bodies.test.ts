/** What the OpenAI adapter's body asks of each kind of server: special tokens kept in the prompted lane, server fields passed on. */
import { describe, expect, it } from 'vitest';
import type { ChatRequest } from '../../../src/core/chat-request.js';
import type { ServerKind } from '../../../src/core/server-kind.js';
import { RequestCaches } from '../../../src/core/request-caches.js';
import { shareToolList } from '../../../src/core/shared-tool-list.js';
import {
  buildOpenAiRequestBody,
  serializeOpenAiRequestBody,
  serverFieldWarnings,
} from '../../../providers/openai/build-openai-request-body.js';

function request(server: ServerKind | undefined, overrides: Partial<ChatRequest> = {}): ChatRequest {
  const model = {
    id: 'local/m',
    provider: 'local',
    providerType: 'openai-compatible',
    model: 'm',
    family: 'harmony',
    toolCalling: 'prompted' as const,
  };
  return {
    model: server ? { ...model, server } : model,
    messages: [{ role: 'user', content: [{ type: 'text', text: 'Weather in Paris?' }] }],
    keepSpecialTokens: ['<|channel|>', '<|message|>'],
    ...overrides,
  };
}

describe('the prompted lane asks vLLM and SGLang to keep special tokens', () => {
  it.each(['vllm', 'sglang'] as const)('%s: skip_special_tokens and spaces_between_special_tokens off', (server) => {
    expect(buildOpenAiRequestBody(request(server), 'openai-compatible', { stream: true })).toMatchInlineSnapshot(`
      {
        "messages": [
          {
            "content": "Weather in Paris?",
            "role": "user",
          },
        ],
        "model": "m",
        "skip_special_tokens": false,
        "spaces_between_special_tokens": false,
        "stream": true,
        "stream_options": {
          "include_usage": true,
        },
      }
    `);
  });

  it("keeps the client's own values", () => {
    const body = buildOpenAiRequestBody(
      request('vllm', { openaiExtras: { skip_special_tokens: true, spaces_between_special_tokens: true } }),
      'openai-compatible',
    );
    expect(body).toMatchObject({ skip_special_tokens: true, spaces_between_special_tokens: true });
  });

  it.each(['generic', 'lmstudio', 'ollama', undefined] as const)('%s: nothing the server may not know', (server) => {
    const body = buildOpenAiRequestBody(request(server), 'openai-compatible');
    expect(body).not.toHaveProperty('skip_special_tokens');
    expect(body).not.toHaveProperty('spaces_between_special_tokens');
  });

  it('the native lane (no keepSpecialTokens) leaves decoding to the server', () => {
    const body = buildOpenAiRequestBody(request('vllm', { keepSpecialTokens: undefined }), 'openai-compatible');
    expect(body).not.toHaveProperty('skip_special_tokens');
  });

  it('the template-rendered variant sends tools with tool_choice none, history structurally', () => {
    const body = buildOpenAiRequestBody(
      request('vllm', {
        tools: [{ name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } }],
        toolChoice: { type: 'none' },
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'Weather in Paris?' }] },
          { role: 'assistant', content: [{ type: 'tool-call', id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' }] },
          { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'call_1', toolName: 'get_weather', output: 'Sunny' }] },
        ],
      }),
      'openai-compatible',
      { stream: false },
    );
    expect(body).toMatchInlineSnapshot(`
      {
        "messages": [
          {
            "content": "Weather in Paris?",
            "role": "user",
          },
          {
            "content": null,
            "role": "assistant",
            "tool_calls": [
              {
                "function": {
                  "arguments": "{"city":"Paris"}",
                  "name": "get_weather",
                },
                "id": "call_1",
                "type": "function",
              },
            ],
          },
          {
            "content": "Sunny",
            "role": "tool",
            "tool_call_id": "call_1",
          },
        ],
        "model": "m",
        "skip_special_tokens": false,
        "spaces_between_special_tokens": false,
        "stream": false,
        "tool_choice": "none",
        "tools": [
          {
            "function": {
              "name": "get_weather",
              "parameters": {
                "properties": {
                  "city": {
                    "type": "string",
                  },
                },
                "type": "object",
              },
            },
            "type": "function",
          },
        ],
      }
    `);
  });
});

describe('server sampling fields', () => {
  const extras = { top_k: 20, min_p: 0, repetition_penalty: 1.05, skip_special_tokens: false, logit_bias: { '1': 2 } };

  it('pass through to openai-compatible upstreams, 0 and false included', () => {
    const body = buildOpenAiRequestBody(request('generic', { keepSpecialTokens: undefined, openaiExtras: extras }), 'openai-compatible');
    expect(body).toMatchObject(extras);
  });

  it('are not sent to OpenAI itself, which rejects unknown fields, and each is named in a warning', () => {
    const body = buildOpenAiRequestBody(request(undefined, { keepSpecialTokens: undefined, openaiExtras: extras }), 'openai');
    expect(body).toMatchObject({ logit_bias: { '1': 2 } });
    for (const name of ['top_k', 'min_p', 'repetition_penalty', 'skip_special_tokens']) expect(body).not.toHaveProperty(name);
    expect(serverFieldWarnings(extras).map((warning) => warning.message)).toEqual([
      "'top_k' is a vLLM/llama.cpp field that OpenAI does not take; it was not sent.",
      "'min_p' is a vLLM/llama.cpp field that OpenAI does not take; it was not sent.",
      "'repetition_penalty' is a vLLM/llama.cpp field that OpenAI does not take; it was not sent.",
      "'skip_special_tokens' is a vLLM/llama.cpp field that OpenAI does not take; it was not sent.",
    ]);
  });
});

describe("tool_choice none for Ollama's /v1, which has no tool_choice", () => {
  const tools = shareToolList([{ name: 'get_weather', parameters: { type: 'object' } }]);
  const native = { keepSpecialTokens: undefined, tools, toolChoice: { type: 'none' as const } };

  it.each([
    ['ollama', false],
    ['vllm', true],
  ] as const)('%s: tools on the wire %s, whether or not their JSON is cached', (server, sent) => {
    const body = serializeOpenAiRequestBody(request(server, native), 'openai-compatible', { stream: true }, new RequestCaches());
    expect(JSON.parse(body.toString()).tools !== undefined).toBe(sent);
    expect(buildOpenAiRequestBody(request(server, native), 'openai-compatible').tools !== undefined).toBe(sent);
  });
});
