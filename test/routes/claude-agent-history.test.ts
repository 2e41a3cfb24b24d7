/**
 * A coding agent's history, as Claude Code and OpenAI-style agents send it, to Claude on Anthropic's API, Vertex AI
 * and Bedrock, through the Messages and Chat Completions APIs: tool uses and results with errors, a tool that
 * printed nothing, a screenshot result with a caption, parallel calls, a text-and-image user turn, cache
 * breakpoints on the system prompt, a tool, a tool result and the last turn. Each fake refuses what its API
 * refuses (anthropic-message-rules.ts, anthropic-tool-result-content.ts, fake-bedrock-server.ts), so a 200 means
 * the upstream took the body; the bodies are then checked where the history is easy to get wrong.
 */
import { describe, expect, it } from 'vitest';
import { postForOk } from '../helpers/claude-and-bedrock.js';
import { claudeModels, claudeOnThreeProvidersForFile } from '../helpers/claude-on-three-providers.js';

const fakes = claudeOnThreeProvidersForFile();

const png = 'iVBORw0KGgoAAAANSUhEUg==';
const ephemeral = { type: 'ephemeral' };
const messagesHeaders = { 'anthropic-version': '2023-06-01' };
const bashSchema = { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] };
const readSchema = { type: 'object', properties: { file_path: { type: 'string' } }, required: ['file_path'] };

/** Claude Code's shape of a session: results first in their turn, its reminders as text after them. */
function messagesHistory(model: string) {
  return {
    model,
    max_tokens: 512,
    system: [{ type: 'text', text: 'You are Claude Code.', cache_control: ephemeral }],
    tools: [
      { name: 'Bash', input_schema: bashSchema },
      { name: 'Read', input_schema: readSchema, cache_control: ephemeral },
    ],
    messages: [
      { role: 'user', content: [{ type: 'text', text: 'Fix the failing test.' }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: "I'll run the tests." },
          { type: 'tool_use', id: 'toolu_01', name: 'Bash', input: { command: 'npm test' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_01', is_error: true, content: 'Exit code 1\nFAIL sum.test.ts' },
          { type: 'text', text: '<system-reminder>Keep going.</system-reminder>' },
        ],
      },
      {
        role: 'assistant',
        content: [
          { type: 'tool_use', id: 'toolu_02', name: 'Read', input: { file_path: 'sum.ts' } },
          { type: 'tool_use', id: 'toolu_03', name: 'Bash', input: { command: 'git status --short' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_02', content: [{ type: 'text', text: 'export const sum = (a, b) => a - b;' }] },
          // A command that printed nothing: Claude Code sends an empty result.
          { type: 'tool_result', tool_use_id: 'toolu_03', content: '' },
        ],
      },
      {
        role: 'assistant',
        content: [{ type: 'tool_use', id: 'toolu_04', name: 'Bash', input: { command: 'open coverage.png' } }],
      },
      {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: 'toolu_04',
            cache_control: ephemeral,
            content: [
              { type: 'text', text: 'Coverage report:' },
              { type: 'image', source: { type: 'base64', media_type: 'image/png', data: png } },
            ],
          },
        ],
      },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_05', name: 'Bash', input: { command: 'true' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_05', content: [] }] },
      {
        role: 'assistant',
        content: [{ type: 'text', text: 'The subtraction should be an addition.' }],
      },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Here is the screen now.' },
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: png } },
          { type: 'text', text: 'Is it fixed?', cache_control: ephemeral },
        ],
      },
    ],
  };
}

/** The same session from an OpenAI-style agent: empty assistant text beside calls, tool messages, parts with a breakpoint. */
function chatHistory(model: string) {
  return {
    model,
    max_tokens: 512,
    tools: [
      { type: 'function', function: { name: 'Bash', parameters: bashSchema } },
      { type: 'function', function: { name: 'Read', parameters: readSchema } },
    ],
    messages: [
      { role: 'system', content: [{ type: 'text', text: 'You are a coding agent.', cache_control: ephemeral }] },
      { role: 'user', content: 'Fix the failing test.' },
      {
        role: 'assistant',
        content: '',
        tool_calls: [{ id: 'call_01', type: 'function', function: { name: 'Bash', arguments: '{"command":"npm test"}' } }],
      },
      { role: 'tool', tool_call_id: 'call_01', content: 'Exit code 1' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_02', type: 'function', function: { name: 'Read', arguments: '{"file_path":"sum.ts"}' } },
          { id: 'call_03', type: 'function', function: { name: 'Bash', arguments: '' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_02', content: [{ type: 'text', text: 'export const sum = (a, b) => a - b;' }] },
      { role: 'tool', tool_call_id: 'call_03', content: '' },
      { role: 'assistant', content: '\n\n' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Is it fixed?' },
          { type: 'image_url', image_url: { url: `data:image/png;base64,${png}` } },
          { type: 'text', text: '', cache_control: ephemeral },
        ],
      },
    ],
  };
}

type AnthropicBody = { system?: unknown; messages: { role: string; content: Record<string, unknown>[] }[] };
type ConverseBody = { system?: unknown; messages: { role: string; content: Record<string, unknown>[] }[] };

const hosts = [
  { name: 'anthropic', model: claudeModels.anthropic, fake: () => fakes.anthropic },
  { name: 'vertex', model: claudeModels.vertex, fake: () => fakes.vertex.anthropic },
] as const;

describe("a coding agent's history to Claude", () => {
  for (const host of hosts) {
    it(`from Messages reaches ${host.name} as Claude takes it`, async () => {
      host.fake().enqueue({ type: 'message', content: [{ type: 'text', text: 'Yes.' }] });
      await postForOk(`${fakes.gateway.baseUrl}/v1/messages`, messagesHistory(host.model), messagesHeaders);
      const body = host.fake().messageRequests().at(-1)!.body as AnthropicBody;
      expect(body.messages[2]?.content).toEqual([
        { type: 'tool_result', tool_use_id: 'toolu_01', is_error: true, content: 'Exit code 1\nFAIL sum.test.ts' },
        { type: 'text', text: '<system-reminder>Keep going.</system-reminder>' },
      ]);
      expect(body.messages[4]?.content).toEqual([
        { type: 'tool_result', tool_use_id: 'toolu_02', content: 'export const sum = (a, b) => a - b;' },
        { type: 'tool_result', tool_use_id: 'toolu_03' },
      ]);
      expect(body.messages[6]?.content).toEqual([
        {
          type: 'tool_result',
          tool_use_id: 'toolu_04',
          cache_control: ephemeral,
          content: [
            { type: 'text', text: 'Coverage report:' },
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: png } },
          ],
        },
      ]);
      expect(body.messages.at(-1)?.content.at(-1)).toEqual({ type: 'text', text: 'Is it fixed?', cache_control: ephemeral });
    });

    it(`from Chat Completions reaches ${host.name} as Claude takes it`, async () => {
      host.fake().enqueue({ type: 'message', content: [{ type: 'text', text: 'Yes.' }] });
      await postForOk(`${fakes.gateway.baseUrl}/v1/chat/completions`, chatHistory(host.model));
      const body = host.fake().messageRequests().at(-1)!.body as AnthropicBody;
      expect(body.messages.map((turn) => turn.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user']);
      expect(body.messages[3]?.content).toEqual([
        { type: 'tool_use', id: 'call_02', name: 'Read', input: { file_path: 'sum.ts' } },
        { type: 'tool_use', id: 'call_03', name: 'Bash', input: {} },
      ]);
      expect(body.messages[4]?.content.slice(0, 2)).toEqual([
        { type: 'tool_result', tool_use_id: 'call_02', content: 'export const sum = (a, b) => a - b;' },
        { type: 'tool_result', tool_use_id: 'call_03' },
      ]);
      // The assistant's blank "\n\n" is left out, and the breakpoint of the blank last part moves to the image before it.
      expect(body.messages.at(-1)?.content.slice(-2)).toEqual([
        { type: 'text', text: 'Is it fixed?' },
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: png }, cache_control: ephemeral },
      ]);
    });
  }

  it('from Messages reaches Bedrock as Converse takes it', async () => {
    fakes.bedrock.enqueue({ type: 'message', text: 'Yes.' });
    await postForOk(`${fakes.gateway.baseUrl}/v1/messages`, messagesHistory(claudeModels.bedrock), messagesHeaders);
    const body = fakes.bedrock.requests.at(-1)!.body as ConverseBody;
    expect(body.messages[2]?.content).toEqual([
      { toolResult: { toolUseId: 'toolu_01', content: [{ text: 'Exit code 1\nFAIL sum.test.ts' }], status: 'error' } },
      { text: '<system-reminder>Keep going.</system-reminder>' },
    ]);
    expect(body.messages[6]?.content).toEqual([
      {
        toolResult: {
          toolUseId: 'toolu_04',
          content: [{ text: 'Coverage report:' }, { image: { format: 'png', source: { bytes: png } } }],
          status: 'success',
        },
      },
      { cachePoint: { type: 'default' } },
    ]);
    expect(body.messages[8]?.content).toEqual([
      { toolResult: { toolUseId: 'toolu_05', content: [{ text: '(no output)' }], status: 'success' } },
    ]);
  });

  it('from Chat Completions reaches Bedrock as Converse takes it', async () => {
    fakes.bedrock.enqueue({ type: 'message', text: 'Yes.' });
    await postForOk(`${fakes.gateway.baseUrl}/v1/chat/completions`, chatHistory(claudeModels.bedrock));
    const body = fakes.bedrock.requests.at(-1)!.body as ConverseBody;
    expect(body.messages.map((turn) => turn.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user']);
    expect(body.messages[4]?.content.slice(0, 2)).toEqual([
      { toolResult: { toolUseId: 'call_02', content: [{ text: 'export const sum = (a, b) => a - b;' }], status: 'success' } },
      { toolResult: { toolUseId: 'call_03', content: [{ text: '(no output)' }], status: 'success' } },
    ]);
  });

  it('with an image given by URL: Anthropic fetches it, Vertex (which refuses URL sources) gets the turn without it', async () => {
    const request = (model: string) => ({
      model,
      max_tokens: 100,
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is this?' },
            { type: 'image', source: { type: 'url', url: 'https://example.com/cat.png' } },
          ],
        },
      ],
    });
    fakes.anthropic.enqueue({ type: 'message', content: [{ type: 'text', text: 'A cat.' }] });
    await postForOk(`${fakes.gateway.baseUrl}/v1/messages`, request(claudeModels.anthropic), messagesHeaders);
    expect((fakes.anthropic.messageRequests().at(-1)!.body as AnthropicBody).messages[0]?.content).toContainEqual({
      type: 'image',
      source: { type: 'url', url: 'https://example.com/cat.png' },
    });
    fakes.vertex.anthropic.enqueue({ type: 'message', content: [{ type: 'text', text: 'No image.' }] });
    const reply = await postForOk(`${fakes.gateway.baseUrl}/v1/messages`, request(claudeModels.vertex), messagesHeaders);
    expect((fakes.vertex.anthropic.messageRequests().at(-1)!.body as AnthropicBody).messages[0]?.content).toEqual([
      { type: 'text', text: 'What is this?' },
    ]);
    expect(JSON.stringify(reply)).toContain('takes files inline only');
  });
});
