/**
 * Messages fields only Claude's own API takes: `context_management` and `service_tier` reach Anthropic as
 * sent, with the beta context management needs (the fake answers 400 without it, as Anthropic does); any
 * other upstream would drop them without a word, so the client is told. Fields for Anthropic's server-side
 * tools (`container`, `mcp_servers`), which the gateway never offers, are named on every upstream.
 */
import { describe, expect, it } from 'vitest';
import { messagesBody, post, providers, useMessagesKit } from './messages-test-kit.js';

const messagesKit = useMessagesKit();

const contextManagement = { edits: [{ type: 'clear_tool_uses_20250919', trigger: { type: 'input_tokens', value: 30000 } }] };

type Message = { diagnostics?: { warnings?: { code: string; message: string }[] } };

function warningsOf(text: string): { code: string; message: string }[] {
  return (JSON.parse(text) as Message).diagnostics?.warnings ?? [];
}

describe('Claude-only fields', () => {
  it('reach Anthropic as sent, with the context-management beta beside the client’s own', async () => {
    messagesKit.kit.anthropic.enqueue({ type: 'message', content: [{ type: 'text', text: 'ok' }] });
    const response = await post(
      messagesKit.url,
      messagesBody(`${providers.anthropic}/claude-sonnet-4-5`, { context_management: contextManagement, service_tier: 'standard_only' }),
      { 'anthropic-beta': 'claude-code-20250219' },
    );
    expect(response.status, response.text).toBe(200);
    const upstream = messagesKit.kit.anthropic.messageRequests().at(-1)!;
    expect(upstream.body).toMatchObject({ context_management: contextManagement, service_tier: 'standard_only' });
    expect(upstream.headers['anthropic-beta']).toBe('claude-code-20250219,context-management-2025-06-27');
    expect(warningsOf(response.text)).toEqual([]);
  });

  it('give compaction its own beta', async () => {
    messagesKit.kit.anthropic.enqueue({ type: 'message', content: [{ type: 'text', text: 'ok' }] });
    const compaction = { edits: [{ type: 'compact_20260112' }] };
    const response = await post(
      messagesKit.url,
      messagesBody(`${providers.anthropic}/claude-opus-4-6`, { context_management: compaction }),
    );
    expect(response.status, response.text).toBe(200);
    expect(messagesKit.kit.anthropic.messageRequests().at(-1)!.headers['anthropic-beta']).toBe('compact-2026-01-12');
  });

  it('are named in a warning each to an OpenAI-compatible upstream, which is not sent them', async () => {
    messagesKit.kit.openai.enqueue({ type: 'chat', content: 'ok' });
    const response = await post(
      messagesKit.url,
      messagesBody(`${providers.openai}/Qwen/Qwen3-8B`, { context_management: contextManagement, service_tier: 'auto' }),
    );
    expect(response.status, response.text).toBe(200);
    const sent = messagesKit.kit.openai.lastChatBody();
    expect(sent.context_management).toBeUndefined();
    expect(sent.service_tier).toBeUndefined();
    expect(warningsOf(response.text)).toEqual([
      { code: 'unsupported-parameter', message: expect.stringContaining("'context_management' is only taken by Anthropic's API") },
      { code: 'unsupported-parameter', message: expect.stringContaining("'service_tier' is only taken by Anthropic's API") },
    ]);
  });

  it('for server-side tools are named on every upstream, Anthropic included', async () => {
    messagesKit.kit.anthropic.enqueue({ type: 'message', content: [{ type: 'text', text: 'ok' }] });
    const mcpServers = [{ type: 'url', url: 'https://example.com/sse', name: 'example' }];
    const response = await post(messagesKit.url, messagesBody(`${providers.anthropic}/claude-sonnet-4-5`, { mcp_servers: mcpServers }));
    expect(response.status, response.text).toBe(200);
    expect(messagesKit.kit.anthropic.messageRequests().at(-1)!.body).not.toHaveProperty('mcp_servers');
    expect(warningsOf(response.text)).toEqual([
      { code: 'unsupported-parameter', message: expect.stringContaining("'mcp_servers' is for Anthropic's server-side tools") },
    ]);
  });
});
