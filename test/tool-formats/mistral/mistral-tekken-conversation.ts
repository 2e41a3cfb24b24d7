/** The tool conversation the mistral-v11 / mistral-v13 prompts are checked on, with the ids Mistral's templates accept. */
// Tools, text before two parallel calls, their results, the answer, and a follow-up question. Ids are
// nine alphanumerics, which the v11 template and mistral-common require (the gateway keeps such ids).
import type { Message } from '../../../src/core/index.js';
import { fidelityTools } from '../../helpers/prompt-fidelity/fidelity-conversation.js';

export const tekkenTools = fidelityTools;

export const tekkenConversation: Message[] = [
  { role: 'system', content: 'You are a concise travel assistant.' },
  { role: 'user', content: [{ type: 'text', text: 'What is the weather in Paris and in Tokyo right now?' }] },
  {
    role: 'assistant',
    content: [
      { type: 'text', text: 'Let me check both cities.' },
      { type: 'tool-call', id: 'a1B2c3D4e', name: 'get_weather', arguments: '{"city": "Paris", "unit": "celsius"}' },
      { type: 'tool-call', id: 'f5G6h7I8j', name: 'get_weather', arguments: '{"city": "Tokyo", "unit": "celsius"}' },
    ],
  },
  {
    role: 'tool',
    content: [
      { type: 'tool-result', toolCallId: 'a1B2c3D4e', output: '{"temperature": 18, "condition": "sunny"}' },
      { type: 'tool-result', toolCallId: 'f5G6h7I8j', output: 'cloudy, 24 degrees' },
    ],
  },
  { role: 'assistant', content: [{ type: 'text', text: 'Paris is sunny at 18 degrees and Tokyo is cloudy at 24 degrees.' }] },
  { role: 'user', content: [{ type: 'text', text: 'Which one is warmer? Find me a hotel there under 200 euros.' }] },
];
