/**
 * Anthropic's own client tools (bash, text editor, computer use, memory) on /v1/messages: Claude gets them as the
 * client defined them (its trained tools, type and name as sent, the computer's display size), any other model a
 * custom tool with the input Anthropic documents; a tool type the gateway does not know is a 400 naming it.
 * The fake Claude takes a tool definition only as Claude's API does (test/helpers/anthropic-tool-definitions.ts).
 */
import { describe, expect, it } from 'vitest';
import { post, providers, useMessagesKit } from './messages-test-kit.js';

const messagesKit = useMessagesKit();

const clientTools = [
  { type: 'bash_20250124', name: 'bash' },
  { type: 'text_editor_20250728', name: 'str_replace_based_edit_tool', max_characters: 10000 },
  { type: 'computer_20250124', name: 'computer', display_width_px: 1280, display_height_px: 800, display_number: 1 },
  { type: 'memory_20250818', name: 'memory', cache_control: { type: 'ephemeral' } },
];
/** The betas Claude's API asks for computer use and the memory tool; the client sends them, as it must to Anthropic. */
const betas = { 'anthropic-beta': 'computer-use-2025-01-24,context-management-2025-06-27' };

function request(model: string, tools: unknown[] = clientTools) {
  return { model, max_tokens: 256, messages: [{ role: 'user', content: 'List the files.' }], tools };
}

describe('Anthropic-defined client tools to Claude', () => {
  it('go upstream as Anthropic types with the names and fields the client sent, and the tool_use comes back as usual', async () => {
    const { anthropic } = messagesKit.kit;
    anthropic.enqueue({ type: 'message', content: [{ type: 'tool_use', id: 'toolu_bash_1', name: 'bash', input: { command: 'ls -la' } }] });
    const response = await post(messagesKit.url, { ...request(`${providers.anthropic}/claude-sonnet-4-5`), stream: false }, betas);
    expect(response.status, response.text).toBe(200);
    const upstream = anthropic.messageRequests().at(-1)!;
    expect((upstream.body as { tools: unknown }).tools).toEqual([
      { type: 'bash_20250124', name: 'bash' },
      { type: 'text_editor_20250728', name: 'str_replace_based_edit_tool', max_characters: 10000 },
      { type: 'computer_20250124', name: 'computer', display_width_px: 1280, display_height_px: 800, display_number: 1 },
      { type: 'memory_20250818', name: 'memory', cache_control: { type: 'ephemeral' } },
    ]);
    expect(upstream.headers['anthropic-beta']).toBe(betas['anthropic-beta']);
    expect(JSON.parse(response.text)).toMatchObject({
      content: [{ type: 'tool_use', id: 'toolu_bash_1', name: 'bash', input: { command: 'ls -la' } }],
      stop_reason: 'tool_use',
    });
  });

  it('keep the text editor name of the generation the client chose (str_replace_editor before text_editor_20250429)', async () => {
    const { anthropic } = messagesKit.kit;
    anthropic.enqueue({ type: 'message', content: [{ type: 'text', text: 'ok' }] });
    const tools = [{ type: 'text_editor_20250124', name: 'str_replace_editor' }];
    const response = await post(messagesKit.url, { ...request(`${providers.anthropic}/claude-3-7-sonnet-20250219`, tools), stream: false });
    expect(response.status, response.text).toBe(200);
    expect((anthropic.messageRequests().at(-1)!.body as { tools: unknown }).tools).toEqual(tools);
  });

  it("pass Claude's own refusal of a definition back (a computer tool without its beta)", async () => {
    const response = await post(messagesKit.url, { ...request(`${providers.anthropic}/claude-sonnet-4-5`), stream: false });
    expect(response.status).toBe(400);
    expect(JSON.parse(response.text)).toMatchObject({
      type: 'error',
      error: { type: 'invalid_request_error', message: expect.stringContaining("Input tag 'computer_20250124'") },
    });
  });
});

describe('Anthropic-defined client tools to another model', () => {
  it('become custom tools with the documented inputs: computer with its actions and display size, memory with its commands', async () => {
    const { openai } = messagesKit.kit;
    openai.enqueue({ type: 'chat', toolCalls: [{ name: 'computer', arguments: { action: 'screenshot' } }] });
    const response = await post(messagesKit.url, { ...request(`${providers.openai}/qwen3-coder`), stream: false });
    expect(response.status, response.text).toBe(200);
    const tools = (
      openai.lastChatBody().tools as { function: { name: string; description: string; parameters: Record<string, unknown> } }[]
    ).map((tool) => tool.function);
    expect(tools.map((tool) => tool.name)).toEqual(['bash', 'str_replace_based_edit_tool', 'computer', 'memory']);
    const computer = tools[2]!;
    expect(computer.description).toContain('1280x800');
    expect(computer.parameters).toMatchObject({
      required: ['action'],
      properties: {
        action: { enum: expect.arrayContaining(['screenshot', 'left_click', 'scroll', 'triple_click', 'hold_key', 'wait']) },
        coordinate: { type: 'array', minItems: 2, maxItems: 2 },
        scroll_direction: { enum: ['up', 'down', 'left', 'right'] },
      },
    });
    expect(tools[3]!.parameters).toMatchObject({
      required: ['command'],
      properties: { command: { enum: ['view', 'create', 'str_replace', 'insert', 'delete', 'rename'] }, old_path: { type: 'string' } },
    });
    // The Anthropic-only fields stay with Claude.
    expect(JSON.stringify(openai.lastChatBody().tools)).not.toContain('display_width_px');
    expect(JSON.parse(response.text)).toMatchObject({ content: [{ type: 'tool_use', name: 'computer', input: { action: 'screenshot' } }] });
  });

  it('refuse a computer tool without its display size, as Anthropic does', async () => {
    const tools = [{ type: 'computer_20250124', name: 'computer', display_height_px: 800 }];
    const response = await post(messagesKit.url, { ...request(`${providers.openai}/qwen3-coder`, tools), stream: false });
    expect(response.status).toBe(400);
    expect(JSON.parse(response.text)).toMatchObject({
      type: 'error',
      error: { type: 'invalid_request_error', message: expect.stringContaining("'tools[0].display_width_px'") },
    });
  });
});

describe('a tool type the gateway does not know', () => {
  it.each([providers.anthropic, providers.openai])('is a 400 naming it (to %s), not a tool silently left out', async (provider) => {
    const tools = [{ type: 'function', name: 'get_weather', input_schema: { type: 'object' } }];
    const before = messagesKit.kit.anthropic.messageRequests().length + messagesKit.kit.openai.chatRequests().length;
    const response = await post(messagesKit.url, { ...request(`${provider}/claude-sonnet-4-5`, tools), stream: false });
    expect(response.status).toBe(400);
    expect(JSON.parse(response.text)).toMatchObject({
      type: 'error',
      error: { type: 'invalid_request_error', message: expect.stringContaining("type 'function'") },
    });
    expect(response.text).toContain('get_weather');
    expect(messagesKit.kit.anthropic.messageRequests().length + messagesKit.kit.openai.chatRequests().length).toBe(before);
  });
});
