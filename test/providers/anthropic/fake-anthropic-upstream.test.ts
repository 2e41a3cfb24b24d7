/** The scripted fake Anthropic upstream itself, for the parts the adapter tests do not reach. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anthropicToolRefusal } from '../../helpers/anthropic-tool-definitions.js';
import { startFakeAnthropicUpstream, type FakeAnthropicUpstream } from '../../helpers/fake-anthropic-upstream.js';

let upstream: FakeAnthropicUpstream;

beforeAll(async () => {
  upstream = await startFakeAnthropicUpstream();
});
afterAll(async () => {
  await upstream.close();
});

async function postMessages(body: Record<string, unknown>) {
  const response = await fetch(`${upstream.url}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'claude-x', max_tokens: 10, messages: [], ...body }),
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

describe('fake anthropic upstream', () => {
  it('answers non-streaming requests with the whole message', async () => {
    upstream.enqueue({
      type: 'message',
      id: 'msg_whole',
      content: [
        { type: 'text', text: 'Hi' },
        { type: 'tool_use', id: 'toolu_w', name: 'run', input: { command: 'ls' } },
      ],
      usage: { input_tokens: 3, output_tokens: 2 },
    });
    expect(await postMessages({ stream: false })).toEqual({
      status: 200,
      json: {
        id: 'msg_whole',
        type: 'message',
        role: 'assistant',
        model: 'claude-x',
        content: [
          { type: 'text', text: 'Hi' },
          { type: 'tool_use', id: 'toolu_w', name: 'run', input: { command: 'ls' } },
        ],
        stop_reason: 'tool_use',
        stop_sequence: null,
        usage: { input_tokens: 3, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 2 },
      },
    });
  });

  it('asks the fallback once the queue is empty, and fails loudly without one', async () => {
    upstream.setFallback((request) => {
      const messages = (request.body as { messages: unknown[] }).messages;
      return { type: 'message', content: [{ type: 'text', text: `turns: ${messages.length}` }] };
    });
    expect((await postMessages({ messages: [{ role: 'user', content: 'a' }] })).json.content).toEqual([{ type: 'text', text: 'turns: 1' }]);
    upstream.setFallback(undefined);
    expect(await postMessages({})).toEqual({
      status: 500,
      json: { type: 'error', error: { type: 'api_error', message: 'fake: no scripted reply left' } },
    });
    expect(upstream.messageRequests()).toHaveLength(3);
  });
});

describe("the fake's check of tool definitions, as Claude's API checks them", () => {
  it.each([
    ['a custom tool without input_schema', [{ name: 'f' }], [], 'tools.0.custom.input_schema: Field required'],
    [
      'an unknown type',
      [{ type: 'function', name: 'f' }],
      [],
      "tools.0: Input tag 'function' found using 'type' does not match any of the expected tags: 'bash_20250124', 'custom',",
    ],
    [
      'a computer tool without its beta',
      [{ type: 'computer_20250124', name: 'computer', display_width_px: 1, display_height_px: 1 }],
      [],
      "Input tag 'computer_20250124'",
    ],
    [
      'a computer tool without its display size',
      [{ type: 'computer_20250124', name: 'computer', display_height_px: 1 }],
      ['computer-use-2025-01-24'],
      'tools.0.computer_20250124.display_width_px: Field required',
    ],
    ['bash under another name', [{ type: 'bash_20250124', name: 'shell' }], [], "tools.0.bash_20250124.name: Input should be 'bash'"],
    [
      'the newer text editor under the older name',
      [{ type: 'text_editor_20250728', name: 'str_replace_editor' }],
      [],
      "Input should be 'str_replace_based_edit_tool'",
    ],
    [
      'an Anthropic tool with a schema',
      [{ type: 'bash_20250124', name: 'bash', input_schema: { type: 'object' } }],
      [],
      'tools.0.bash_20250124.input_schema: Extra inputs are not permitted',
    ],
  ])('refuses %s', (_case, tools, betas, message) => {
    expect(anthropicToolRefusal(tools, betas)).toContain(message);
  });

  it("refuses, with thinking on, a last tool-use turn that does not start with thinking or redacted_thinking, as Claude's API does", async () => {
    const toolUse = { type: 'tool_use', id: 'toolu_t', name: 'run', input: {} };
    const loop = (first: Record<string, unknown>[], thinking: unknown) => ({
      thinking,
      messages: [
        { role: 'user', content: 'go' },
        { role: 'assistant', content: [...first, toolUse] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_t', content: 'done' }] },
      ],
    });
    const refused = await postMessages(loop([], { type: 'adaptive' }));
    expect(refused.status).toBe(400);
    expect((refused.json.error as { message: string }).message).toMatch(
      /^messages\.1\.content\.0\.type: Expected `thinking` or `redacted_thinking`, but found `tool_use`\./,
    );
    upstream.enqueue(
      { type: 'message', content: [{ type: 'text', text: 'a' }] },
      { type: 'message', content: [{ type: 'text', text: 'b' }] },
      { type: 'message', content: [{ type: 'text', text: 'c' }] },
    );
    expect((await postMessages(loop([{ type: 'redacted_thinking', data: 'ZW5j' }], { type: 'enabled', budget_tokens: 1024 }))).status).toBe(
      200,
    );
    expect((await postMessages(loop([{ type: 'thinking', thinking: 't', signature: 'c2ln' }], { type: 'adaptive' }))).status).toBe(200);
    // Without thinking, nothing is asked of the turn.
    expect((await postMessages(loop([], undefined))).status).toBe(200);
  });

  it('takes custom tools and Anthropic tools as the docs define them, with their betas', () => {
    const tools = [
      { name: 'f', input_schema: { type: 'object' }, cache_control: { type: 'ephemeral' } },
      { type: 'bash_20250124', name: 'bash' },
      { type: 'text_editor_20250728', name: 'str_replace_based_edit_tool', max_characters: 100 },
      { type: 'computer_20250124', name: 'computer', display_width_px: 1024, display_height_px: 768, display_number: 1 },
      { type: 'memory_20250818', name: 'memory' },
    ];
    expect(anthropicToolRefusal(tools, ['computer-use-2025-01-24', 'context-management-2025-06-27'])).toBeUndefined();
  });

  it("takes text and image blocks in a tool_result's content, as Claude's API does, and refuses a tool_use there", async () => {
    const turn = (content: unknown[]) => [
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_s', name: 'computer', input: { action: 'screenshot' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_s', content }] },
    ];
    const screenshot = { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } };
    upstream.enqueue({ type: 'message', content: [{ type: 'text', text: 'I see it.' }] });
    expect((await postMessages({ messages: turn([{ type: 'text', text: 'Screen:' }, screenshot]) })).status).toBe(200);
    const refused = await postMessages({ messages: turn([{ type: 'tool_use', id: 'x', name: 'y', input: {} }]) });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.json)).toContain(
      "messages.1.content.0.tool_result.content.0: Input tag 'tool_use' found using 'type' does not match any of the expected tags",
    );
  });
});
