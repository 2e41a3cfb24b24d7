/** The conversation of DeepSeek V3.2's encoder test (`encoding/test_input.json`), up to the follow-up question. */
// Transcribed from deepseek-ai/DeepSeek-V3.2's encoding/test_input.json (copy in ai-dynamo/dynamo,
// lib/llm/tests/data/deepseek-v3.2/test_input.json at ab84711): tools, a call, its result, two parallel
// calls, their results, the answer and the follow-up question, each assistant turn with its reasoning.
// The gold prompt (test/fixtures/deepseek-v32-rendered-prompts/test_output.txt) goes on with the model's
// reply to the follow-up, which the test reads back as a reply.
import type { Message, ToolDefinition } from '../../../src/core/index.js';

export const encoderTools: ToolDefinition[] = [
  {
    name: 'get_datetime',
    description: 'Get the current date and time',
    parameters: {
      type: 'object',
      properties: { timezone: { type: 'string', description: 'The timezone, e.g. America/New_York, UTC' } },
      required: ['timezone'],
    },
  },
  {
    name: 'get_weather',
    description: 'Get the weather for a specific date and location',
    parameters: {
      type: 'object',
      properties: {
        location: { type: 'string', description: 'The city name, e.g. New York, San Francisco' },
        date: { type: 'string', description: 'The date in YYYY-MM-DD format' },
      },
      required: ['location', 'date'],
    },
  },
];

export const followUpQuestion = 'Thanks! What about the day after tomorrow?';

export const encoderConversation: Message[] = [
  { role: 'system', content: 'You are a helpful Assistant.' },
  { role: 'user', content: [{ type: 'text', text: "What's the weather tomorrow in San Francisco and New York?" }] },
  {
    role: 'assistant',
    content: [
      {
        type: 'reasoning',
        text: "User is asking about tomorrow's weather. I need to first get the current date to calculate tomorrow's date.",
      },
      { type: 'tool-call', id: 'call_xK9mN3pL2qR8vT5wY6hZ1aB4', name: 'get_datetime', arguments: '{"timezone": "America/New_York"}' },
    ],
  },
  {
    role: 'tool',
    content: [
      {
        type: 'tool-result',
        toolCallId: 'call_xK9mN3pL2qR8vT5wY6hZ1aB4',
        output: '{"current_date": "2024-01-15", "current_time": "14:30:00", "timezone": "America/New_York"}',
      },
    ],
  },
  {
    role: 'assistant',
    content: [
      {
        type: 'reasoning',
        text: 'Now I know today is 2024-01-15, so tomorrow is 2024-01-16. Let me query the weather for San Francisco and New York.',
      },
      {
        type: 'tool-call',
        id: 'call_bN7kR9mX3pQ2wL5vY8jZ4cD6',
        name: 'get_weather',
        arguments: '{"location": "San Francisco", "date": "2024-01-16"}',
      },
      {
        type: 'tool-call',
        id: 'call_dP9mL7kX5rT4yN3wZ2hV8eF1',
        name: 'get_weather',
        arguments: '{"location": "New York", "date": "2024-01-16"}',
      },
    ],
  },
  {
    role: 'tool',
    content: [
      {
        type: 'tool-result',
        toolCallId: 'call_bN7kR9mX3pQ2wL5vY8jZ4cD6',
        output:
          '{"location": "San Francisco", "date": "2024-01-16", "temperature_high": "65", "temperature_low": "55", "weather": "partly cloudy", "humidity": "70%"}',
      },
      {
        type: 'tool-result',
        toolCallId: 'call_dP9mL7kX5rT4yN3wZ2hV8eF1',
        output:
          '{"location": "New York", "date": "2024-01-16", "temperature_high": "28", "temperature_low": "15", "weather": "sunny", "humidity": "35%"}',
      },
    ],
  },
  {
    role: 'assistant',
    content: [
      { type: 'reasoning', text: "Retrieved weather data for both cities. Now I'll format a nice response for the user." },
      {
        type: 'text',
        text: "Based on the forecast, here's tomorrow's weather (January 16, 2024):\n\n**San Francisco**:\n- Weather: Partly cloudy\n- High: 65°F\n- Low: 55°F\n- Humidity: 70%\n\n**New York**:\n- Weather: Sunny\n- High: 28°F\n- Low: 15°F\n- Humidity: 35%\n\nSan Francisco will be mild and partly cloudy, while New York will be cold but sunny. If you're in New York, dress warmly!",
      },
    ],
  },
  { role: 'user', content: [{ type: 'text', text: followUpQuestion }] },
];
