/** A failed tool result stays marked as failed on wires with no error flag (OpenAI's and Ollama's tool messages). */
import { describe, expect, it } from 'vitest';
import type { Message } from '../../src/core/message.js';
import { convertToOllamaMessages } from '../../providers/ollama/convert-to-ollama-messages.js';
import { convertToOpenAiMessages } from '../../providers/openai/convert-to-openai-messages.js';

// As the Messages route reads `{"type": "tool_result", "is_error": true, …}` beside a successful one.
const results: Message = {
  role: 'tool',
  content: [
    { type: 'tool-result', toolCallId: 'toolu_01B', toolName: 'get_weather', output: 'need a city', isError: true },
    { type: 'tool-result', toolCallId: 'toolu_01A', toolName: 'get_weather', output: '21C' },
  ],
};

describe('tool results that failed', () => {
  it('are marked in OpenAI tool messages', () => {
    expect(convertToOpenAiMessages([results]).map((message) => message.content)).toEqual(['Error: need a city', '21C']);
  });

  it('are marked in Ollama tool messages', () => {
    expect(convertToOllamaMessages([results]).messages.map((message) => message.content)).toEqual(['Error: need a city', '21C']);
  });
});
