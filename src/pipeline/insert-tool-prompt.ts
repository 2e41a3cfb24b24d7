/** Appends the tool prompt to the caller's system text (which stays first and intact). */
import type { Message } from '../core/message.js';

type Combination = { system: string; prompt: string; content: string };

/**
 * Recent system texts with their prompt appended. Agents send the same system text and tools every
 * turn; handing back the same string object lets the body serialiser find its remembered JSON by
 * identity, instead of comparing tens of kilobytes of new string (see long-text-json.ts).
 */
const recent: Combination[] = [];
const recentCapacity = 8;

function withPrompt(system: string, prompt: string): string {
  for (const entry of recent) if (entry.prompt === prompt && entry.system === system) return entry.content;
  const content = `${system}\n\n${prompt}`;
  recent.unshift({ system, prompt, content });
  if (recent.length > recentCapacity) recent.pop();
  return content;
}

export function insertToolPrompt(messages: Message[], toolPrompt: string): Message[] {
  if (!toolPrompt) return messages;
  const index = messages.findIndex((message) => message.role === 'system');
  if (index === -1) return [{ role: 'system', content: toolPrompt }, ...messages];
  const system = messages[index] as Extract<Message, { role: 'system' }>;
  const result = messages.slice();
  result[index] = { role: 'system', content: system.content ? withPrompt(system.content, toolPrompt) : toolPrompt };
  return result;
}
