/**
 * Codex-shaped traffic (as Codex sends it on the wire): developer message items, function + custom + namespace
 * + hosted tools, unknown top-level fields, and the follow-up turn carrying tool results back.
 */
import type OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { expectWellFormedStream, nativeModel, postRawSse, promptedModel, useResponsesHarness } from './responses-test-kit.js';

const responses = useResponsesHarness();

const execCommand = {
  type: 'function',
  name: 'exec_command',
  description: 'Runs a command in a PTY.',
  strict: false,
  parameters: {
    type: 'object',
    properties: { cmd: { type: 'string' }, workdir: { type: 'string' } },
    required: ['cmd'],
    additionalProperties: false,
  },
};
const grammar = 'start: begin_patch hunk+ end_patch\nbegin_patch: "*** Begin Patch" LF';
const applyPatch = {
  type: 'custom',
  name: 'apply_patch',
  description: 'Use the `apply_patch` tool to edit files. This is a FREEFORM tool, so do not wrap the patch in JSON.',
  format: { type: 'grammar', syntax: 'lark', definition: grammar },
};
const closeAgent = {
  type: 'function',
  name: 'close_agent',
  description: 'Close an agent.',
  strict: false,
  parameters: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
};
const multiAgent = { type: 'namespace', name: 'multi_agent_v1', description: 'Sub-agents.', tools: [closeAgent] };
const webSearch = { type: 'web_search', external_web_access: false, search_content_types: ['text', 'image'] };
const toolSearch = {
  type: 'tool_search',
  execution: 'client',
  description: 'Search tools',
  parameters: { type: 'object', properties: { query: { type: 'string' } } },
};

const firstTurnInput = [
  {
    type: 'message',
    id: 'msg_dev1',
    role: 'developer',
    content: [{ type: 'input_text', text: 'You are a coding agent running in the Codex CLI.' }],
  },
  {
    type: 'message',
    id: 'msg_dev2',
    role: 'developer',
    content: [
      { type: 'input_text', text: '<skills_instructions>…' },
      { type: 'input_text', text: '<permissions instructions>…' },
    ],
  },
  {
    type: 'message',
    id: 'msg_env',
    role: 'user',
    content: [{ type: 'input_text', text: '<environment_context><cwd>/w</cwd></environment_context>' }],
  },
  { type: 'message', id: 'msg_user', role: 'user', content: [{ type: 'input_text', text: 'Create probe.txt' }] },
];

/** What Codex 0.171 sends, including fields outside the public spec. */
function codexBody(input: unknown[]): Record<string, unknown> {
  return {
    model: nativeModel,
    input,
    tools: [execCommand, applyPatch, multiAgent, toolSearch, webSearch],
    tool_choice: 'auto',
    parallel_tool_calls: true,
    reasoning: { effort: 'medium', summary: 'auto' },
    store: false,
    include: ['reasoning.encrypted_content'],
    prompt_cache_key: 'thread-uuid',
    text: { verbosity: 'low' },
    client_metadata: { 'x-codex-installation-id': 'install-1', session_id: 's-1', thread_id: 't-1', turn_id: 'turn-1' },
  };
}

const patch = '*** Begin Patch\n*** Add File: probe.txt\n+hello "quoted" \\ back\n+tab\there ✓ 😀\n*** End Patch\n';

describe('first turn', () => {
  it('sends the upstream the developer messages, the user turn and the translated tools, ignoring unknown fields', async () => {
    responses.harness.upstream.enqueue({ type: 'chat', content: 'On it.' });
    const result = await postRawSse(responses.harness.gateway.baseUrl, codexBody(firstTurnInput));
    expect(result.status).toBe(200);
    expectWellFormedStream(result);

    const body = responses.harness.upstream.lastChatBody();
    expect(body.messages).toEqual([
      // Two developer items fold into one leading system message for an OpenAI-compatible server.
      { role: 'system', content: 'You are a coding agent running in the Codex CLI.\n\n<skills_instructions>…<permissions instructions>…' },
      { role: 'user', content: '<environment_context><cwd>/w</cwd></environment_context>' },
      { role: 'user', content: 'Create probe.txt' },
    ]);
    const upstreamTools = body.tools as {
      function: { name: string; description?: string; parameters: Record<string, unknown>; strict?: boolean };
    }[];
    expect(upstreamTools.map((tool) => tool.function.name)).toEqual(['exec_command', 'apply_patch', 'close_agent']);
    expect(upstreamTools[0]?.function).toEqual({
      name: 'exec_command',
      description: execCommand.description,
      parameters: execCommand.parameters,
      strict: false,
    });
    const patchTool = upstreamTools[1]?.function;
    expect(patchTool?.description).toContain(applyPatch.description);
    expect(patchTool?.parameters).toMatchObject({ type: 'object', required: ['input'], properties: { input: { type: 'string' } } });
    expect(JSON.stringify(patchTool?.parameters)).toContain(JSON.stringify(grammar).slice(1, -1));
    expect(body).toMatchObject({ tool_choice: 'auto', parallel_tool_calls: true, reasoning_effort: 'medium' });
    for (const ignored of ['store', 'include', 'prompt_cache_key', 'client_metadata', 'text', 'verbosity'])
      expect(body).not.toHaveProperty(ignored);

    const completed = result.events.at(-1)?.data as {
      type: string;
      response: { diagnostics?: { warnings?: { code: string; message: string }[] }; store: boolean };
    };
    expect(completed.type).toBe('response.completed');
    expect(completed.response.store).toBe(false);
    const warnings = completed.response.diagnostics?.warnings ?? [];
    expect(
      warnings
        .filter((warning) => warning.code === 'unsupported-tool')
        .map((warning) => warning.message)
        .join(' '),
    ).toMatch(/tool_search.*web_search/s);
  });

  it('renders a custom tool call as custom_tool_call with the raw input, streamed unwrapped', async () => {
    responses.harness.upstream.enqueue({
      type: 'chat',
      reasoning: 'Write the file.',
      toolCalls: [{ id: 'call_patch1', name: 'apply_patch', arguments: { input: patch } }],
      fragmentSize: 5,
    });
    const result = await postRawSse(responses.harness.gateway.baseUrl, codexBody(firstTurnInput));
    expectWellFormedStream(result);
    const deltas = result.events
      .filter(({ data }) => data.type === 'response.custom_tool_call_input.delta')
      .map(({ data }) => data.delta as string);
    expect(deltas.length).toBeGreaterThan(5);
    expect(deltas.join('')).toBe(patch);
    const done = result.events.find(
      ({ data }) => data.type === 'response.output_item.done' && (data.item as { type: string }).type === 'custom_tool_call',
    );
    expect(done?.data.item).toEqual({
      id: expect.stringMatching(/^ctc_/),
      type: 'custom_tool_call',
      status: 'completed',
      call_id: 'call_patch1',
      name: 'apply_patch',
      input: patch,
    });
  });

  it('marks calls to namespaced tools with their namespace, and the SDK accepts the stream', async () => {
    responses.harness.upstream.enqueue({ type: 'chat', toolCalls: [{ id: 'call_ns', name: 'close_agent', arguments: { id: 'agent-7' } }] });
    const stream = responses.client.responses.stream(
      codexBody(firstTurnInput) as unknown as OpenAI.Responses.ResponseCreateParamsStreaming,
    );
    const final = await stream.finalResponse();
    expect(final.output).toHaveLength(1);
    // toMatchObject: the SDK adds its own parsed_arguments locally.
    expect(final.output).toMatchObject([
      {
        id: expect.stringMatching(/^fc_/),
        type: 'function_call',
        status: 'completed',
        call_id: 'call_ns',
        name: 'close_agent',
        namespace: 'multi_agent_v1',
        arguments: '{"id":"agent-7"}',
      },
    ]);
  });
});

describe('follow-up turn', () => {
  it('sends function and custom tool results upstream as tool_calls and tool messages, call ids kept, reasoning dropped', async () => {
    responses.harness.upstream.enqueue({ type: 'chat', content: 'Done.' });
    const history = [
      ...firstTurnInput,
      {
        type: 'reasoning',
        id: 'rs_1',
        summary: [{ type: 'summary_text', text: '**Planning**' }],
        content: null,
        encrypted_content: 'gAAAAfake-opaque-blob',
      },
      { type: 'message', id: 'msg_a1', role: 'assistant', content: [{ type: 'output_text', text: 'Running it.', annotations: [] }] },
      {
        type: 'function_call',
        status: 'completed',
        id: 'fc_1',
        name: 'exec_command',
        arguments: '{"cmd":"echo hi > probe.txt"}',
        call_id: 'call_abc123',
      },
      { type: 'function_call_output', id: 'fco_1', call_id: 'call_abc123', output: 'Process exited with code 0\nOutput:\nhi\n' },
      { type: 'custom_tool_call', id: 'ctc_1', status: 'completed', call_id: 'call_patch1', name: 'apply_patch', input: patch },
      {
        type: 'custom_tool_call_output',
        id: 'ctco_1',
        call_id: 'call_patch1',
        output: [
          { type: 'input_text', text: 'Success. Updated the following files:' },
          { type: 'input_text', text: 'A probe.txt' },
        ],
      },
    ];
    const response = await responses.client.responses.create(
      codexBody(history) as unknown as OpenAI.Responses.ResponseCreateParamsNonStreaming,
    );
    expect(response.output_text).toBe('Done.');

    const messages = responses.harness.upstream.lastChatBody().messages as Record<string, unknown>[];
    expect(messages.slice(3)).toEqual([
      {
        role: 'assistant',
        content: 'Running it.',
        tool_calls: [
          { id: 'call_abc123', type: 'function', function: { name: 'exec_command', arguments: '{"cmd":"echo hi > probe.txt"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_abc123', content: 'Process exited with code 0\nOutput:\nhi\n' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_patch1', type: 'function', function: { name: 'apply_patch', arguments: JSON.stringify({ input: patch }) } },
        ],
      },
      // Parts a line apart (src/core/join-tool-result-parts.ts).
      { role: 'tool', tool_call_id: 'call_patch1', content: 'Success. Updated the following files:\nA probe.txt' },
    ]);
  });

  it('merges consecutive parallel calls into one assistant turn', async () => {
    responses.harness.upstream.enqueue({ type: 'chat', content: 'ok' });
    await responses.client.responses.create({
      model: nativeModel,
      input: [
        { role: 'user', content: 'two things' },
        { type: 'function_call', call_id: 'call_a', name: 'exec_command', arguments: '{"cmd":"a"}' },
        { type: 'function_call', call_id: 'call_b', name: 'exec_command', arguments: '{"cmd":"b"}' },
        { type: 'function_call_output', call_id: 'call_a', output: 'A' },
        { type: 'function_call_output', call_id: 'call_b', output: 'B' },
      ],
      tools: [execCommand as OpenAI.Responses.FunctionTool],
    });
    const messages = responses.harness.upstream.lastChatBody().messages as {
      role: string;
      tool_calls?: { id: string }[];
      tool_call_id?: string;
    }[];
    expect(messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'tool']);
    expect(messages[1]?.tool_calls?.map((call) => call.id)).toEqual(['call_a', 'call_b']);
    expect(messages.slice(2).map((message) => message.tool_call_id)).toEqual(['call_a', 'call_b']);
  });

  it('sends the images tool outputs return (view_image, MCP screenshots) as user content after the run of outputs', async () => {
    responses.harness.upstream.enqueue({ type: 'chat', content: 'Both are red.' });
    const response = await responses.client.responses.create({
      model: nativeModel,
      input: [
        { role: 'user', content: 'Compare the screenshots.' },
        { type: 'function_call', call_id: 'call_a', name: 'exec_command', arguments: '{"cmd":"view a.png"}' },
        { type: 'function_call', call_id: 'call_b', name: 'exec_command', arguments: '{"cmd":"view b.png"}' },
        {
          type: 'function_call_output',
          call_id: 'call_a',
          output: [
            { type: 'input_text', text: 'a.png' },
            { type: 'input_image', image_url: 'data:image/png;base64,QUFBQQ==', detail: 'auto' },
          ],
        },
        { type: 'function_call_output', call_id: 'call_b', output: [{ type: 'input_image', image_url: 'data:image/png;base64,QkJCQg==' }] },
        { role: 'user', content: 'Which is brighter?' },
      ],
      tools: [execCommand as OpenAI.Responses.FunctionTool],
    });
    expect(response.output_text).toBe('Both are red.');
    const messages = responses.harness.upstream.lastChatBody().messages as Record<string, unknown>[];
    expect(messages.slice(2)).toEqual([
      { role: 'tool', tool_call_id: 'call_a', content: 'a.png' },
      { role: 'tool', tool_call_id: 'call_b', content: '' },
      {
        role: 'user',
        content: [
          { type: 'image_url', image_url: { url: 'data:image/png;base64,QUFBQQ==', detail: 'auto' } },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,QkJCQg==' } },
          { type: 'text', text: 'Which is brighter?' },
        ],
      },
    ]);
    expect((response as unknown as { diagnostics?: unknown }).diagnostics).toBeUndefined();
  });

  it('sends the images of the last tool outputs as a user message of their own when no user turn follows', async () => {
    responses.harness.upstream.enqueue({ type: 'chat', content: 'A cat.' });
    const response = await responses.client.responses.create({
      model: nativeModel,
      input: [
        { role: 'user', content: 'What is in it?' },
        { type: 'function_call', call_id: 'call_v', name: 'exec_command', arguments: '{"cmd":"view cat.png"}' },
        {
          type: 'function_call_output',
          call_id: 'call_v',
          output: [
            { type: 'input_image', image_url: 'https://example.com/cat.png' },
            { type: 'input_image', file_id: 'file-123' },
          ],
        },
      ],
      tools: [execCommand as OpenAI.Responses.FunctionTool],
    });
    const messages = responses.harness.upstream.lastChatBody().messages as Record<string, unknown>[];
    expect(messages.slice(2)).toEqual([
      { role: 'tool', tool_call_id: 'call_v', content: '' },
      { role: 'user', content: [{ type: 'image_url', image_url: { url: 'https://example.com/cat.png' } }] },
    ]);
    // An uploaded file's id means nothing to another provider: left out, and said so.
    expect((response as unknown as { diagnostics: { warnings: unknown[] } }).diagnostics.warnings).toEqual([
      expect.objectContaining({ code: 'unsupported-content', message: expect.stringContaining("'input[2].output[1]'") }),
    ]);
  });
});

describe('prompted lane', () => {
  it('parses a freeform tool call out of model text and returns it as custom_tool_call', async () => {
    const call = JSON.stringify({ name: 'apply_patch', arguments: { input: patch } });
    responses.harness.promptedUpstream.enqueue({
      type: 'chat',
      content: `I'll add the file.\n<tool_call>\n${call}\n</tool_call>`,
      fragmentSize: 7,
    });
    const result = await postRawSse(responses.harness.gateway.baseUrl, { ...codexBody(firstTurnInput), model: promptedModel });
    expect(result.status).toBe(200);
    expect(result.headers.get('x-tool-calling')).toBe('prompted');
    expect(result.headers.get('x-tool-format')).toBeTruthy();
    expectWellFormedStream(result);
    const completed = result.events.at(-1)?.data.response as { output: Record<string, unknown>[] };
    const customCall = completed.output.find((item) => item.type === 'custom_tool_call');
    expect(customCall).toMatchObject({ name: 'apply_patch', input: patch, status: 'completed', call_id: expect.any(String) });
    const upstreamBody = responses.harness.promptedUpstream.lastChatBody();
    expect(upstreamBody).not.toHaveProperty('tools');
    expect(JSON.stringify(upstreamBody.messages)).toContain('apply_patch');
  });
  it("passes an inference server's own sampling fields on, as the Chat route does (top_k, min_p, repetition_penalty)", async () => {
    responses.harness.upstream.enqueue({ type: 'chat', content: 'ok' });
    const response = await fetch(`${responses.harness.gateway.baseUrl}/v1/responses`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: nativeModel, input: 'hi', top_k: 20, min_p: 0.05, repetition_penalty: 1.05, store: false }),
    });
    expect(response.status).toBe(200);
    expect(responses.harness.upstream.lastChatBody()).toMatchObject({ top_k: 20, min_p: 0.05, repetition_penalty: 1.05 });
    expect(responses.harness.upstream.lastChatBody()).not.toHaveProperty('store');
  });
});
