/**
 * Claude's `redacted_thinking` (encrypted reasoning) through the gateway, between a Messages client and Claude on
 * Anthropic's API, Vertex AI and Bedrock: Claude's replies carry it to the client, whole and streamed, and the
 * client's history carries it back unchanged and in its place, which Claude requires of a tool loop's last turn
 * with thinking on (https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking#thinking-redaction and
 * #preserving-thinking-blocks). Each fake refuses, with thinking on, a last tool-use turn that does not start with
 * thinking, as Claude does (anthropic-message-rules.ts, fake-bedrock-server.ts).
 */
import { describe, expect, it } from 'vitest';
import { postForOk } from '../../helpers/claude-and-bedrock.js';
import { claudeModels, claudeOnThreeProvidersForFile } from '../../helpers/claude-on-three-providers.js';
import type { FakeAnthropicUpstream } from '../../helpers/fake-anthropic-upstream.js';
import { postJson } from '../../helpers/read-sse.js';
import { accumulate, anthropicEvents, eventSequence } from './messages-test-kit.js';

const fakes = claudeOnThreeProvidersForFile();

const messagesHeaders = { 'anthropic-version': '2023-06-01' };
const bashSchema = { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] };
/** Opaque to the gateway; base64, as Claude's data is and Converse's blob is on its wire. */
const firstRedacted = Buffer.from('encrypted reasoning, first turn').toString('base64');
const secondRedacted = Buffer.from('encrypted reasoning, second turn').toString('base64');

const thinkingTurn = [
  { type: 'thinking', thinking: 'List the files first.', signature: 'c2lnbmVkIHRoaW5raW5n' },
  { type: 'redacted_thinking', data: firstRedacted },
  { type: 'text', text: 'Listing.' },
  { type: 'tool_use', id: 'toolu_01', name: 'Bash', input: { command: 'ls' } },
];
/** The last turn's only reasoning is redacted: without it the turn starts with tool_use, which Claude refuses. */
const redactedOnlyTurn = [
  { type: 'redacted_thinking', data: secondRedacted },
  { type: 'tool_use', id: 'toolu_02', name: 'Bash', input: { command: 'cat notes.txt' } },
];

function toolLoop(model: string, stream: boolean) {
  return {
    model,
    stream,
    max_tokens: 4096,
    thinking: { type: 'enabled', budget_tokens: 2048 },
    tools: [{ name: 'Bash', input_schema: bashSchema }],
    messages: [
      { role: 'user', content: 'What do my notes say?' },
      { role: 'assistant', content: thinkingTurn },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01', content: 'notes.txt' }] },
      { role: 'assistant', content: redactedOnlyTurn },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_02', content: 'Buy milk.' }] },
    ],
  };
}

const claudeMessagesApis: { name: string; model: string; fake: () => FakeAnthropicUpstream }[] = [
  { name: 'Anthropic', model: claudeModels.anthropic, fake: () => fakes.anthropic },
  { name: 'Vertex AI', model: claudeModels.vertex, fake: () => fakes.vertex.anthropic },
];

describe.each(claudeMessagesApis)('Claude on $name', ({ model, fake }) => {
  it("a Messages client's redacted_thinking goes back unchanged and in its place, with thinking kept on", async () => {
    fake().enqueue({ type: 'message', content: [{ type: 'text', text: 'Buy milk.' }] });
    await postForOk(`${fakes.gateway.baseUrl}/v1/messages`, toolLoop(model, false), messagesHeaders);
    const body = fake().messageRequests().at(-1)!.body as { thinking?: unknown; messages: { role: string; content: unknown }[] };
    expect(body.thinking).toMatchObject({ type: 'enabled' });
    expect(body.messages.filter((message) => message.role === 'assistant').map((message) => message.content)).toEqual([
      thinkingTurn,
      redactedOnlyTurn,
    ]);
  });

  const reply = [
    { type: 'thinking' as const, thinking: 'Read it.', signature: 'c2ln' },
    { type: 'redacted_thinking' as const, data: secondRedacted },
    { type: 'text' as const, text: 'Reading.' },
    { type: 'tool_use' as const, id: 'toolu_09', name: 'Bash', input: { command: 'cat notes.txt' } },
  ];

  it("Claude's redacted_thinking reaches a streaming Messages client whole in its block's start, in its place", async () => {
    fake().enqueue({ type: 'message', content: reply });
    const request = { model, stream: true, max_tokens: 512, messages: [{ role: 'user', content: 'Notes?' }] };
    const response = await postJson(`${fakes.gateway.baseUrl}/v1/messages`, request, messagesHeaders);
    expect(response.status, response.text).toBe(200);
    const events = anthropicEvents(response.text);
    const sequence = eventSequence(events);
    expect(sequence.slice(sequence.indexOf('start redacted_thinking #1'), sequence.indexOf('stop #1') + 1)).toEqual([
      'start redacted_thinking #1',
      'stop #1',
    ]);
    expect(accumulate(events).content).toEqual(reply);
  });

  it("Claude's redacted_thinking reaches a non-streaming Messages client in its place", async () => {
    fake().enqueue({ type: 'message', content: reply });
    const request = { model, max_tokens: 512, messages: [{ role: 'user', content: 'Notes?' }] };
    const message = (await postForOk(`${fakes.gateway.baseUrl}/v1/messages`, request, messagesHeaders)) as { content: unknown };
    expect(message.content).toEqual(reply);
  });
});

describe('a redacted_thinking block without its data', () => {
  it.each([{}, { data: '' }, { data: 42 }])('is refused with 400 in the Messages envelope, naming the field: %j', async (fields) => {
    const request = {
      model: claudeModels.anthropic,
      max_tokens: 64,
      messages: [
        { role: 'user', content: 'Hi' },
        {
          role: 'assistant',
          content: [
            { type: 'redacted_thinking', ...fields },
            { type: 'text', text: 'Hello.' },
          ],
        },
        { role: 'user', content: 'Again' },
      ],
    };
    const response = await postJson(`${fakes.gateway.baseUrl}/v1/messages`, request, messagesHeaders);
    expect(response.status).toBe(400);
    const body = JSON.parse(response.text) as { type: string; error: { type: string; message: string } };
    expect(body.type).toBe('error');
    expect(body.error.type).toBe('invalid_request_error');
    expect(body.error.message).toContain('messages[1].content[0].data');
  });
});

type ConverseBody = { messages: { role: string; content: Record<string, unknown>[] }[]; additionalModelRequestFields?: unknown };

describe('Claude on Bedrock', () => {
  it("a Messages client's redacted_thinking goes back as reasoningContent.redactedContent, in its place", async () => {
    await postForOk(`${fakes.gateway.baseUrl}/v1/messages`, toolLoop(claudeModels.bedrock, false), messagesHeaders);
    const body = fakes.bedrock.requests.at(-1)!.body as ConverseBody;
    expect(body.additionalModelRequestFields).toMatchObject({ thinking: { type: 'enabled' } });
    expect(body.messages.filter((message) => message.role === 'assistant').map((message) => message.content)).toEqual([
      [
        { reasoningContent: { reasoningText: { text: 'List the files first.', signature: 'c2lnbmVkIHRoaW5raW5n' } } },
        // A blob travels as base64 on Converse's JSON wire.
        { reasoningContent: { redactedContent: firstRedacted } },
        { text: 'Listing.' },
        { toolUse: { toolUseId: 'toolu_01', name: 'Bash', input: { command: 'ls' } } },
      ],
      [
        { reasoningContent: { redactedContent: secondRedacted } },
        { toolUse: { toolUseId: 'toolu_02', name: 'Bash', input: { command: 'cat notes.txt' } } },
      ],
    ]);
  });

  it.each([false, true])("Claude's redactedContent reaches a Messages client as redacted_thinking (stream: %s)", async (stream) => {
    fakes.bedrock.enqueue({
      type: 'message',
      reasoning: [{ text: 'Read it.', signature: 'c2ln' }, { redactedContent: secondRedacted }],
      text: 'Reading.',
    });
    const request = { model: claudeModels.bedrock, stream, max_tokens: 512, messages: [{ role: 'user', content: 'Notes?' }] };
    const response = await postJson(`${fakes.gateway.baseUrl}/v1/messages`, request, messagesHeaders);
    expect(response.status, response.text).toBe(200);
    const content = stream
      ? accumulate(anthropicEvents(response.text)).content
      : (JSON.parse(response.text) as { content: unknown }).content;
    expect(content).toEqual([
      { type: 'thinking', thinking: 'Read it.', signature: 'c2ln' },
      { type: 'redacted_thinking', data: secondRedacted },
      { type: 'text', text: 'Reading.' },
    ]);
  });
});
