/** What the OpenAI adapter's body asks of each kind of server: special tokens kept in the prompted lane, server fields passed on. */
import { describe, expect, it } from 'vitest';
import type { ChatRequest } from '../../../src/core/chat-request.js';
import type { ServerKind } from '../../../src/core/server-kind.js';
import type { ToolChoice } from '../../../src/core/tool-definition.js';
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

describe("the prompted lane replays a turn's reasoning where the family's encoder shows it (replayReasoning)", () => {
  const conversation: ChatRequest['messages'] = [
    { role: 'user', content: [{ type: 'text', text: 'Weather in Paris?' }] },
    {
      role: 'assistant',
      content: [
        { type: 'reasoning', text: 'Look it up.' },
        { type: 'text', text: 'Checking.' },
      ],
    },
    { role: 'user', content: [{ type: 'text', text: 'And Tokyo?' }] },
  ];
  const assistantOf = (body: Record<string, unknown>) => (body.messages as Record<string, unknown>[])[1];

  // vLLM's chat_utils.py `_parse_chat_message_content` hands a message's `reasoning` to the encoder;
  // SGLang's templates and llama-server (common/chat.cpp `common_chat_msgs_parse_oaicompat`) read
  // `reasoning_content`; Ollama's /v1 reads `reasoning` (openai/openai.go).
  it.each([
    ['vllm', 'reasoning'],
    ['sglang', 'reasoning_content'],
    ['llama.cpp', 'reasoning_content'],
    ['ollama', 'reasoning'],
  ] as const)('%s: in `%s`', (server, field) => {
    const body = buildOpenAiRequestBody(request(server, { messages: conversation, replayReasoning: true }), 'openai-compatible');
    expect(assistantOf(body)).toEqual({ role: 'assistant', content: 'Checking.', [field]: 'Look it up.' });
  });

  it.each(['lmstudio', 'generic', undefined] as const)('%s: not sent, as it is not known to read it', (server) => {
    const body = buildOpenAiRequestBody(request(server, { messages: conversation, replayReasoning: true }), 'openai-compatible');
    expect(assistantOf(body)).toEqual({ role: 'assistant', content: 'Checking.' });
  });

  it('not sent unless the request asks, for a turn the template drops (a user message follows it)', () => {
    const body = buildOpenAiRequestBody(request('vllm', { messages: conversation }), 'openai-compatible');
    expect(assistantOf(body)).toEqual({ role: 'assistant', content: 'Checking.' });
  });
});

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

describe('tool_choice where the server cannot take it as given', () => {
  const tools = shareToolList([
    { name: 'get_weather', parameters: { type: 'object' } },
    { name: 'get_time', parameters: { type: 'object' } },
  ]);
  /** The body's tools and tool_choice, serialised with the cache (twice: from it the second time) and without. */
  function sent(server: ServerKind, toolChoice: ToolChoice) {
    const native = request(server, { keepSpecialTokens: undefined, tools, toolChoice });
    const caches = new RequestCaches();
    const bodies = [0, 1].map(() =>
      JSON.parse(serializeOpenAiRequestBody(native, 'openai-compatible', { stream: true }, caches).toString()),
    );
    bodies.push(buildOpenAiRequestBody(native, 'openai-compatible'));
    return bodies.map((body: { tools?: { function: { name: string } }[]; tool_choice?: unknown }) => ({
      tools: body.tools?.map((tool) => tool.function.name),
      tool_choice: body.tool_choice,
    }));
  }

  it("Ollama's /v1 (no tool_choice at all): none is kept by offering no tools", () => {
    expect(sent('ollama', { type: 'none' })).toEqual(Array(3).fill({ tools: undefined, tool_choice: undefined }));
  });

  it('llama-server (tool_choice read as a string only): a named tool becomes that tool alone, required', () => {
    expect(sent('llama.cpp', { type: 'tool', name: 'get_time' })).toEqual(Array(3).fill({ tools: ['get_time'], tool_choice: 'required' }));
  });

  it('vLLM takes both as given', () => {
    expect(sent('vllm', { type: 'none' })).toEqual(Array(3).fill({ tools: ['get_weather', 'get_time'], tool_choice: 'none' }));
    expect(sent('vllm', { type: 'tool', name: 'get_time' })).toEqual(
      Array(3).fill({ tools: ['get_weather', 'get_time'], tool_choice: { type: 'function', function: { name: 'get_time' } } }),
    );
  });
});
