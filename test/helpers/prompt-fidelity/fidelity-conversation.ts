/** The conversation every template is rendered over: two parallel calls, their results, an answer, a new question. */
// Text the rendering must not touch marks the call/result section: it starts after the first question
// and ends where the answer after the results begins. Call ids are 9+ alphanumerics, as Mistral's
// template requires.
import type { Message, ToolDefinition } from '../../../src/core/index.js';

export const firstQuestion = 'What is the weather in Paris and in Tokyo right now?';
export const answerAfterResults = 'Paris is sunny at 18 degrees and Tokyo is cloudy at 24 degrees.';

export const fidelityTools: ToolDefinition[] = [
  {
    name: 'get_weather',
    description: 'Get the current weather in a city.',
    parameters: {
      type: 'object',
      properties: {
        city: { type: 'string', description: 'The city name.' },
        unit: { type: 'string', enum: ['celsius', 'fahrenheit'], description: 'Temperature unit.' },
      },
      required: ['city'],
    },
  },
  {
    name: 'search_hotels',
    description: 'Find hotels in a city under a nightly price.',
    parameters: {
      type: 'object',
      properties: {
        city: { type: 'string', description: 'The city name.' },
        max_price: { type: 'number', description: 'Highest price per night in euros.' },
      },
      required: ['city'],
    },
  },
];

export const fidelityMessages: Message[] = [
  { role: 'system', content: 'You are a concise travel assistant.' },
  { role: 'user', content: [{ type: 'text', text: firstQuestion }] },
  {
    role: 'assistant',
    content: [
      { type: 'tool-call', id: 'call0a1b2c3d4', name: 'get_weather', arguments: '{"city": "Paris", "unit": "celsius"}' },
      { type: 'tool-call', id: 'call5e6f7g8h9', name: 'get_weather', arguments: '{"city": "Tokyo", "unit": "celsius"}' },
    ],
  },
  {
    role: 'tool',
    content: [
      { type: 'tool-result', toolCallId: 'call0a1b2c3d4', output: '{"temperature": 18, "condition": "sunny"}' },
      { type: 'tool-result', toolCallId: 'call5e6f7g8h9', output: '{"temperature": 24, "condition": "cloudy"}' },
    ],
  },
  { role: 'assistant', content: [{ type: 'text', text: answerAfterResults }] },
  { role: 'user', content: [{ type: 'text', text: 'Which one is warmer? Find me a hotel there under 200 euros.' }] },
];
