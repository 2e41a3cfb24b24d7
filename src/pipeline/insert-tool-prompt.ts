/** Appends the tool prompt to the caller's system text (which stays first and intact). */
import type { Message } from '../core/message.js';

export function insertToolPrompt(messages: Message[], toolPrompt: string): Message[] {
  if (!toolPrompt) return messages;
  const index = messages.findIndex((message) => message.role === 'system');
  if (index === -1) return [{ role: 'system', content: toolPrompt }, ...messages];
  const system = messages[index] as Extract<Message, { role: 'system' }>;
  const result = messages.slice();
  result[index] = { role: 'system', content: system.content ? `${system.content}\n\n${toolPrompt}` : toolPrompt };
  return result;
}
