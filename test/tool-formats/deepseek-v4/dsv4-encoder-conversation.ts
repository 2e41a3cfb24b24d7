/** The conversation of DeepSeek V4's encoder test case 1 (`encoding/tests/test_input_1.json`). */
// Transcribed from deepseek-ai/DeepSeek-V4-Flash's encoding test (see
// test/fixtures/deepseek-v4-rendered-prompts/README.md): two tools on the system message, a question, a call
// with its reasoning, its result, and the answer with its reasoning.
import type { Message, ToolDefinition } from '../../../src/core/index.js';

export const encoderTools: ToolDefinition[] = [
  {
    name: 'get_weather',
    description: 'Get the weather for a specific location',
    parameters: {
      type: 'object',
      properties: {
        location: { type: 'string', description: 'The city name' },
        unit: { type: 'string', enum: ['celsius', 'fahrenheit'], description: 'Temperature unit' },
      },
      required: ['location'],
    },
  },
  {
    name: 'search',
    description: 'Search the web for information',
    parameters: {
      type: 'object',
      properties: {
        query: { type: 'string', description: 'Search query' },
        num_results: { type: 'integer', description: 'Number of results to return' },
      },
      required: ['query'],
    },
  },
];

export const encoderConversation: Message[] = [
  { role: 'system', content: 'You are a helpful assistant.' },
  { role: 'user', content: [{ type: 'text', text: "What's the weather in Beijing?" }] },
  {
    role: 'assistant',
    content: [
      { type: 'reasoning', text: 'The user wants to know the weather in Beijing. I should use the get_weather tool.' },
      { type: 'tool-call', id: 'call_001', name: 'get_weather', arguments: '{"location": "Beijing", "unit": "celsius"}' },
    ],
  },
  {
    role: 'tool',
    content: [{ type: 'tool-result', toolCallId: 'call_001', output: '{"temperature": 22, "condition": "sunny", "humidity": 45}' }],
  },
  {
    role: 'assistant',
    content: [
      { type: 'reasoning', text: 'Got the weather data. Let me format a nice response.' },
      { type: 'text', text: 'The weather in Beijing is currently sunny with a temperature of 22°C and 45% humidity.' },
    ],
  },
];
