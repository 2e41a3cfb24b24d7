/** What an Anthropic Messages request becomes upstream: transcripts, system messages, tools, options and headers. */
import { describe, expect, it } from 'vitest';
import { accumulate, anthropicEvents, messagesBody, post, providers, useMessagesKit } from './messages-test-kit.js';

const messagesKit = useMessagesKit();

const bashTool = {
  name: 'Bash',
  description: 'Run a shell command',
  input_schema: {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    properties: { command: { type: 'string' }, description: { type: 'string' } },
    required: ['command'],
    additionalProperties: false,
  },
};

/**
 * Claude Code's follow-up turn (as captured on the wire), with a second call and an error result; its redacted
 * thinking is Claude's alone, left out for any other model.
 */
const transcript = [
  { role: 'user', content: [{ type: 'text', text: 'Create probe.txt', cache_control: { type: 'ephemeral' } }] },
  {
    role: 'assistant',
    content: [
      { type: 'thinking', thinking: 'Let me think.', signature: 'ZmFrZXNpZw==' },
      { type: 'redacted_thinking', data: 'ZW5jcnlwdGVk' },
      { type: 'text', text: 'I will run a command.' },
      { type: 'tool_use', id: 'toolu_01ABC', name: 'Bash', input: { command: 'echo hello > probe.txt', description: 'write probe' } },
      { type: 'tool_use', id: 'toolu_01DEF', name: 'Bash', input: { command: 'cat probe.txt' } },
    ],
  },
  {
    role: 'user',
    content: [
      { tool_use_id: 'toolu_01ABC', type: 'tool_result', content: '', is_error: false, cache_control: { type: 'ephemeral' } },
      {
        tool_use_id: 'toolu_01DEF',
        type: 'tool_result',
        content: [
          { type: 'text', text: 'hello' },
          { type: 'text', text: 'world' },
        ],
        is_error: true,
      },
      { type: 'text', text: 'Now summarise.' },
    ],
  },
];

describe('a multi-turn tool transcript to an OpenAI-compatible upstream', () => {
  it('arrives as assistant tool_calls and tool messages with the Anthropic ids kept', async () => {
    messagesKit.kit.openai.enqueue({ type: 'chat', content: 'Done.' });
    const response = await post(
      messagesKit.url,
      messagesBody(`${providers.openai}/Qwen/Qwen3-8B`, { stream: true, system: 'Be brief.', tools: [bashTool], messages: transcript }),
    );
    expect(response.status).toBe(200);
    const sent = messagesKit.kit.openai.lastChatBody();
    expect(sent.messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Create probe.txt' },
      expect.objectContaining({
        role: 'assistant',
        content: 'I will run a command.',
        tool_calls: [
          {
            id: 'toolu_01ABC',
            type: 'function',
            function: { name: 'Bash', arguments: JSON.stringify({ command: 'echo hello > probe.txt', description: 'write probe' }) },
          },
          { id: 'toolu_01DEF', type: 'function', function: { name: 'Bash', arguments: JSON.stringify({ command: 'cat probe.txt' }) } },
        ],
      }),
      { role: 'tool', tool_call_id: 'toolu_01ABC', content: '' },
      // OpenAI's tool message has no is_error: the failure is said in the content (src/core/tool-result-text.ts).
      { role: 'tool', tool_call_id: 'toolu_01DEF', content: 'Error: hello\nworld' },
      { role: 'user', content: 'Now summarise.' },
    ]);
  });

  it('a tool_use id minted by the gateway round-trips as the tool_result id', async () => {
    messagesKit.kit.openai.enqueue({ type: 'chat', toolCalls: [{ id: 'call_round_trip', name: 'Bash', arguments: { command: 'ls' } }] });
    const first = await post(messagesKit.url, messagesBody(`${providers.openai}/Qwen/Qwen3-8B`, { stream: true, tools: [bashTool] }));
    const call = accumulate(anthropicEvents(first.text)).content[0] as Record<string, unknown>;
    expect(call).toMatchObject({ type: 'tool_use', id: 'call_round_trip', name: 'Bash', input: { command: 'ls' } });

    messagesKit.kit.openai.enqueue({ type: 'chat', content: 'ok' });
    await post(
      messagesKit.url,
      messagesBody(`${providers.openai}/Qwen/Qwen3-8B`, {
        tools: [bashTool],
        messages: [
          { role: 'user', content: 'Hello' },
          { role: 'assistant', content: [call] },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: call.id, content: 'a b c' }] },
        ],
      }),
    );
    const messages = messagesKit.kit.openai.lastChatBody().messages as Record<string, unknown>[];
    expect((messages[1]?.tool_calls as Record<string, unknown>[])[0]?.id).toBe('call_round_trip');
    expect(messages[2]).toEqual({ role: 'tool', tool_call_id: 'call_round_trip', content: 'a b c' });
  });
});

describe('system prompts', () => {
  it('system blocks are joined (the billing header left out) and a mid-conversation role:"system" message folds into the leading one', async () => {
    messagesKit.kit.openai.enqueue({ type: 'chat', content: 'ok' });
    await post(
      messagesKit.url,
      messagesBody(`${providers.openai}/Qwen/Qwen3-8B`, {
        system: [
          { type: 'text', text: 'x-anthropic-billing-header: cc_version=2.1.197.c94; cc_entrypoint=sdk-cli;' },
          { type: 'text', text: 'You are a Claude agent.', cache_control: { type: 'ephemeral' } },
          { type: 'text', text: 'Help with code.', cache_control: { type: 'ephemeral' } },
        ],
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: '<system-reminder>r</system-reminder>' },
              { type: 'text', text: 'Create probe.txt' },
            ],
          },
          { role: 'system', content: 'Available agent types: claude' },
        ],
      }),
    );
    const messages = messagesKit.kit.openai.lastChatBody().messages as Record<string, unknown>[];
    // Chat templates of OpenAI-compatible servers take one system message, first (README: system messages).
    expect(messages.map((message) => message.role)).toEqual(['system', 'user']);
    expect(messages[0]?.content).toBe('You are a Claude agent.\n\nHelp with code.\n\nAvailable agent types: claude');
    // (How the two user text blocks are joined is the OpenAI adapter's business.)
    expect(JSON.stringify(messages[1]?.content)).toMatch(/<system-reminder>r<\/system-reminder>.*Create probe\.txt/);
  });
});

describe('anthropic-* headers', () => {
  const headers = { 'anthropic-beta': 'claude-code-20250219', 'anthropic-version': '2023-06-01', 'x-request-id': 'req_headers_1' };

  it.each([
    [
      'an OpenAI-compatible',
      () => messagesKit.kit.openai.enqueue({ type: 'chat', content: 'ok' }),
      `${providers.openai}/Qwen/Qwen3-8B`,
      () => messagesKit.kit.openai.chatRequests().at(-1),
    ],
    [
      'an Ollama',
      () => messagesKit.kit.ollama.enqueue({ type: 'chat', content: 'ok' }),
      `${providers.ollama}/qwen3:8b`,
      () => messagesKit.kit.ollama.requests.at(-1),
    ],
  ])('never reach %s upstream', async (_kind, enqueue, model, lastRequest) => {
    enqueue();
    const response = await post(messagesKit.url, messagesBody(model), headers);
    expect(response.status).toBe(200);
    const sent = lastRequest()?.headers ?? {};
    expect(Object.keys(sent).filter((name) => name.startsWith('anthropic-'))).toEqual([]);
  });
});

describe('tools and options', () => {
  it('strips $schema, drops server tools with a diagnostics warning, and maps tool_choice, sampling and user', async () => {
    messagesKit.kit.openai.enqueue({ type: 'chat', content: 'ok' });
    const response = await post(
      messagesKit.url,
      messagesBody(`${providers.openai}/Qwen/Qwen3-8B`, {
        tools: [bashTool, { type: 'web_search_20250305', name: 'web_search', max_uses: 5 }],
        tool_choice: { type: 'any', disable_parallel_tool_use: true },
        temperature: 0,
        top_p: 0.9,
        top_k: 40,
        stop_sequences: ['END'],
        metadata: { user_id: '{"device_id":"d1"}' },
        thinking: { type: 'adaptive' },
        output_config: { effort: 'high' },
        context_management: { edits: [{ type: 'clear_thinking_20251015', keep: 'all' }] },
      }),
    );
    expect(response.status).toBe(200);
    const sent = messagesKit.kit.openai.lastChatBody();
    const { $schema: _marker, ...schemaWithoutMarker } = bashTool.input_schema;
    expect(sent.tools).toEqual([
      { type: 'function', function: { name: 'Bash', description: 'Run a shell command', parameters: schemaWithoutMarker } },
    ]);
    expect(sent).toMatchObject({
      tool_choice: 'required',
      parallel_tool_calls: false,
      temperature: 0,
      top_p: 0.9,
      stop: ['END'],
      user: '{"device_id":"d1"}',
      max_tokens: 1024,
    });
    // `adaptive` leaves the depth to the model: no reasoning_effort that a non-reasoning model would reject.
    expect(sent).not.toHaveProperty('reasoning_effort');
    // top_k is the sampling extra vLLM, SGLang and llama-server take: an OpenAI-compatible server gets it.
    expect(sent.top_k).toBe(40);
    const message = JSON.parse(response.text) as Record<string, unknown>;
    const warnings = (message.diagnostics as { warnings: { code: string; message: string }[] }).warnings;
    expect(warnings.map((warning) => warning.code)).toEqual(expect.arrayContaining(['unsupported-tool']));
    expect(warnings.find((warning) => warning.code === 'unsupported-tool')?.message).toContain('web_search');
  });

  it('a named tool_choice becomes a function choice; images become image parts', async () => {
    messagesKit.kit.openai.enqueue({ type: 'chat', content: 'ok' });
    await post(
      messagesKit.url,
      messagesBody(`${providers.openai}/Qwen/Qwen3-8B`, {
        tools: [bashTool],
        tool_choice: { type: 'tool', name: 'Bash' },
        messages: [
          {
            role: 'user',
            content: [
              { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
              { type: 'image', source: { type: 'url', url: 'https://example.com/cat.jpg' } },
              { type: 'text', text: 'What is this?' },
            ],
          },
        ],
      }),
    );
    const sent = messagesKit.kit.openai.lastChatBody();
    expect(sent.tool_choice).toEqual({ type: 'function', function: { name: 'Bash' } });
    const content = (sent.messages as Record<string, unknown>[])[0]?.content as Record<string, unknown>[];
    expect(content[0]).toMatchObject({ type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } });
    expect(content[1]).toMatchObject({ type: 'image_url', image_url: { url: 'https://example.com/cat.jpg' } });
    expect(content[2]).toEqual({ type: 'text', text: 'What is this?' });
  });
});

describe('files', () => {
  it('a PDF document becomes a file part and an image inside a tool_result follows the tool message as user content', async () => {
    messagesKit.kit.openai.enqueue({ type: 'chat', content: 'ok' });
    await post(
      messagesKit.url,
      messagesBody(`${providers.openai}/Qwen/Qwen3-8B`, {
        tools: [bashTool],
        messages: [
          {
            role: 'user',
            content: [
              { type: 'document', title: 'spec.pdf', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0=' } },
              { type: 'text', text: 'Read it.' },
            ],
          },
          { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_img', name: 'Bash', input: { command: 'screenshot' } }] },
          {
            role: 'user',
            content: [
              {
                type: 'tool_result',
                tool_use_id: 'toolu_img',
                content: [
                  { type: 'text', text: 'captured' },
                  { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
                ],
              },
            ],
          },
        ],
      }),
    );
    const messages = messagesKit.kit.openai.lastChatBody().messages as Record<string, unknown>[];
    expect(messages[0]?.content).toEqual([
      { type: 'file', file: { file_data: 'data:application/pdf;base64,JVBERi0=', filename: 'spec.pdf' } },
      { type: 'text', text: 'Read it.' },
    ]);
    expect(messages[2]).toEqual({ role: 'tool', tool_call_id: 'toolu_img', content: 'captured' });
    expect(messages[3]).toMatchObject({
      role: 'user',
      content: [{ type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } }],
    });
  });
  it('the images of parallel tool results follow the last tool message, so every call is answered before the user turn', async () => {
    messagesKit.kit.openai.enqueue({ type: 'chat', content: 'ok' });
    const imageResult = (id: string, data: string) => ({
      type: 'tool_result',
      tool_use_id: id,
      content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data } }],
    });
    await post(
      messagesKit.url,
      messagesBody(`${providers.openai}/Qwen/Qwen3-8B`, {
        tools: [bashTool],
        messages: [
          { role: 'user', content: 'Look at both screenshots.' },
          {
            role: 'assistant',
            content: [
              { type: 'tool_use', id: 'toolu_a', name: 'Bash', input: { command: 'screenshot a' } },
              { type: 'tool_use', id: 'toolu_b', name: 'Bash', input: { command: 'screenshot b' } },
            ],
          },
          {
            role: 'user',
            content: [imageResult('toolu_a', 'QUFBQQ=='), imageResult('toolu_b', 'QkJCQg=='), { type: 'text', text: 'Compare.' }],
          },
        ],
      }),
    );
    const messages = messagesKit.kit.openai.lastChatBody().messages as Record<string, unknown>[];
    expect(messages.slice(2)).toEqual([
      { role: 'tool', tool_call_id: 'toolu_a', content: '' },
      { role: 'tool', tool_call_id: 'toolu_b', content: '' },
      {
        role: 'user',
        content: [
          { type: 'image_url', image_url: { url: 'data:image/png;base64,QUFBQQ==' } },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,QkJCQg==' } },
          { type: 'text', text: 'Compare.' },
        ],
      },
    ]);
  });
});

describe('to an Anthropic upstream', () => {
  it('thinking with its signature and redacted thinking round-trip in place, and anthropic-beta/version are forwarded', async () => {
    messagesKit.kit.anthropic.enqueue({ type: 'message', content: [{ type: 'text', text: 'ok' }] });
    const response = await post(
      messagesKit.url,
      messagesBody(`${providers.anthropic}/claude-sonnet-4-5`, {
        stream: true,
        tools: [bashTool],
        messages: [
          transcript[0],
          {
            role: 'assistant',
            content: [
              { type: 'thinking', thinking: 'Let me think.', signature: 'ZmFrZXNpZw==' },
              { type: 'redacted_thinking', data: 'opaque' },
              { type: 'tool_use', id: 'toolu_01ABC', name: 'Bash', input: { command: 'ls' } },
            ],
          },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01ABC', content: 'probe.txt', is_error: false }] },
        ],
      }),
      { 'anthropic-beta': 'claude-code-20250219,interleaved-thinking-2025-05-14', 'anthropic-version': '2023-06-01' },
    );
    expect(response.status).toBe(200);
    const upstream = messagesKit.kit.anthropic.messageRequests().at(-1);
    expect(upstream?.headers['anthropic-beta']).toBe('claude-code-20250219,interleaved-thinking-2025-05-14');
    expect(upstream?.headers['anthropic-version']).toBe('2023-06-01');
    const body = upstream?.body as Record<string, unknown>;
    expect(body.messages).toEqual([
      // Claude Code's cache breakpoint stays where it put it.
      { role: 'user', content: [{ type: 'text', text: 'Create probe.txt', cache_control: { type: 'ephemeral' } }] },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'Let me think.', signature: 'ZmFrZXNpZw==' },
          { type: 'redacted_thinking', data: 'opaque' },
          { type: 'tool_use', id: 'toolu_01ABC', name: 'Bash', input: { command: 'ls' } },
        ],
      },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01ABC', content: 'probe.txt', is_error: false }] },
    ]);
    expect(body.max_tokens).toBe(1024);
  });

  it("Claude Code's adaptive thinking and effort reach a Claude 4.6+ model as sent, and an older Claude as a thinking budget", async () => {
    const claudeCode = { thinking: { type: 'adaptive' }, output_config: { effort: 'high' }, max_tokens: 32000 };
    messagesKit.kit.anthropic.enqueue({ type: 'message', content: [{ type: 'text', text: 'ok' }] });
    const adaptive = await post(messagesKit.url, messagesBody(`${providers.anthropic}/claude-opus-4-7`, claudeCode));
    expect(adaptive.status).toBe(200);
    const sentAdaptive = messagesKit.kit.anthropic.messageRequests().at(-1)?.body as Record<string, unknown>;
    expect(sentAdaptive.thinking).toEqual({ type: 'adaptive' });
    expect(sentAdaptive.output_config).toEqual({ effort: 'high' });
    messagesKit.kit.anthropic.enqueue({ type: 'message', content: [{ type: 'text', text: 'ok' }] });
    const older = await post(messagesKit.url, messagesBody(`${providers.anthropic}/claude-sonnet-4-5`, claudeCode));
    expect(older.status).toBe(200);
    const sentOlder = messagesKit.kit.anthropic.messageRequests().at(-1)?.body as Record<string, unknown>;
    expect(sentOlder.thinking).toEqual({ type: 'enabled', budget_tokens: 16384 });
  });

  it("a budget from a Messages client reaches Claude Opus 4.7, which refuses budgets, as adaptive thinking at that budget's effort", async () => {
    messagesKit.kit.anthropic.enqueue({ type: 'message', content: [{ type: 'text', text: 'ok' }] });
    const response = await post(
      messagesKit.url,
      messagesBody(`${providers.anthropic}/claude-opus-4-7`, { thinking: { type: 'enabled', budget_tokens: 4000 }, max_tokens: 16000 }),
    );
    expect(response.status).toBe(200);
    const sent = messagesKit.kit.anthropic.messageRequests().at(-1)?.body as Record<string, unknown>;
    expect(sent.thinking).toEqual({ type: 'adaptive' });
    expect(sent.output_config).toEqual({ effort: 'medium' });
  });

  it("keeps Claude Code's cache breakpoints where it put them: the system prompt, the last tool, a tool result, the last user text", async () => {
    messagesKit.kit.anthropic.enqueue({ type: 'message', content: [{ type: 'text', text: 'ok' }] });
    const ephemeral = { type: 'ephemeral' };
    const response = await post(
      messagesKit.url,
      messagesBody(`${providers.anthropic}/claude-sonnet-4-5`, {
        system: [
          { type: 'text', text: 'You are Claude Code.' },
          { type: 'text', text: 'Be brief.', cache_control: ephemeral },
        ],
        tools: [
          { name: 'Read', description: 'Read a file', input_schema: { type: 'object', properties: {} } },
          { ...bashTool, cache_control: { type: 'ephemeral', ttl: '1h' } },
        ],
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'List files' }] },
          { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_01', name: 'Bash', input: { command: 'ls' } }] },
          {
            role: 'user',
            content: [
              { type: 'tool_result', tool_use_id: 'toolu_01', content: 'a.txt', cache_control: ephemeral },
              { type: 'text', text: 'Now read it.', cache_control: ephemeral },
            ],
          },
        ],
      }),
    );
    expect(response.status).toBe(200);
    const body = messagesKit.kit.anthropic.messageRequests().at(-1)?.body as Record<string, unknown>;
    expect(body.system).toEqual([{ type: 'text', text: 'You are Claude Code.\n\nBe brief.', cache_control: ephemeral }]);
    const tools = body.tools as { name: string; cache_control?: unknown }[];
    expect(tools.map((tool) => tool.cache_control)).toEqual([undefined, { type: 'ephemeral', ttl: '1h' }]);
    expect((body.messages as unknown[]).at(-1)).toEqual({
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'toolu_01', content: 'a.txt', cache_control: ephemeral },
        { type: 'text', text: 'Now read it.', cache_control: ephemeral },
      ],
    });
  });

  it('POST /{provider}/v1/messages takes the model whole and echoes it as sent', async () => {
    messagesKit.kit.anthropic.enqueue({ type: 'message', content: [{ type: 'text', text: 'hi' }] });
    const response = await post(
      `${messagesKit.kit.gateway.baseUrl}/${providers.anthropic}/v1/messages?beta=true`,
      messagesBody('claude-opus-4-8'),
    );
    expect(response.status).toBe(200);
    expect((messagesKit.kit.anthropic.messageRequests().at(-1)?.body as Record<string, unknown>).model).toBe('claude-opus-4-8');
    expect(JSON.parse(response.text)).toMatchObject({ model: 'claude-opus-4-8', content: [{ type: 'text', text: 'hi' }] });
  });
});

describe('top_k, the sampling field Anthropic has and OpenAI has not', () => {
  it('goes to Anthropic as top_k and to Ollama as options.top_k, without a warning', async () => {
    messagesKit.kit.anthropic.enqueue({ type: 'message', content: [{ type: 'text', text: 'ok' }] });
    const viaAnthropic = await post(messagesKit.url, messagesBody(`${providers.anthropic}/claude-sonnet-4-5`, { top_k: 12 }));
    expect(viaAnthropic.status).toBe(200);
    expect((messagesKit.kit.anthropic.messageRequests().at(-1)!.body as Record<string, unknown>).top_k).toBe(12);
    expect(JSON.parse(viaAnthropic.text)).not.toHaveProperty('diagnostics');
    messagesKit.kit.ollama.enqueue({ type: 'chat', content: 'ok' });
    const viaOllama = await post(messagesKit.url, messagesBody(`${providers.ollama}/llama3.1:8b`, { top_k: 7 }));
    expect(viaOllama.status).toBe(200);
    const sent = messagesKit.kit.ollama.requests.filter((request) => request.path === '/api/chat').at(-1)!.body as {
      options?: Record<string, unknown>;
    };
    expect(sent.options?.top_k).toBe(7);
    expect(JSON.parse(viaOllama.text)).not.toHaveProperty('diagnostics');
  });
});
