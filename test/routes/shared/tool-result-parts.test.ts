/** A tool result sent as several text parts reads the same on every API: its parts a line apart. */
import { describe, expect, it } from 'vitest';
import { parseChatMessages } from '../../../routes/chat-completions/parse-chat-messages.js';
import { parseAnthropicMessages } from '../../../routes/messages/parse-anthropic-messages.js';
import { parseToolOutput } from '../../../routes/responses/parse-message-content.js';
import type { Message } from '../../../src/core/message.js';

/** An MCP tool's answer of two text items, each a file's listing. */
const parts = ['file a', 'file b'];

function toolOutputOf(messages: Message[]): string | undefined {
  const tool = messages.find((message) => message.role === 'tool');
  const part = tool?.content[0];
  return part?.type === 'tool-result' ? part.output : undefined;
}

describe('a tool result of several text parts', () => {
  it('Chat Completions: a tool message with a content array', () => {
    const messages = parseChatMessages([
      { role: 'assistant', tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'ls', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: 'call_1', content: parts.map((text) => ({ type: 'text', text })) },
    ] as never);
    expect(toolOutputOf(messages)).toBe('file a\nfile b');
  });

  it('Responses: a function_call_output with input_text parts', () => {
    const output = parseToolOutput(
      parts.map((text) => ({ type: 'input_text', text })),
      'input[1].output',
      [],
    );
    expect(output.text).toBe('file a\nfile b');
  });

  it('Messages: a tool_result with text blocks', () => {
    const messages = parseAnthropicMessages(
      undefined,
      [
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'ls', input: {} }] },
        {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: parts.map((text) => ({ type: 'text', text })) }],
        },
      ] as never,
      [],
    );
    expect(toolOutputOf(messages)).toBe('file a\nfile b');
  });
});
