/** Appends the tool prompt to the caller's system text (which stays first and intact). */
import type { Message } from '../core/message.js';
import type { RecentCombinations } from '../core/recent-combinations.js';

function joinWithPrompt(system: string, prompt: string): string {
  return `${system}\n\n${prompt}`;
}

/**
 * `systems`: recent system texts with their prompt appended (RequestCaches.systemsWithToolPrompt).
 * Agents send the same system text and tools every turn; handing back the same string object lets the
 * body serialiser find its remembered JSON by identity, instead of comparing tens of kilobytes of new
 * string (see long-text-json.ts).
 */
export function insertToolPrompt(messages: Message[], toolPrompt: string, systems?: RecentCombinations): Message[] {
  if (!toolPrompt) return messages;
  const index = messages.findIndex((message) => message.role === 'system');
  if (index === -1) return [{ role: 'system', content: toolPrompt }, ...messages];
  const system = messages[index] as Extract<Message, { role: 'system' }>;
  const result = messages.slice();
  result[index] = {
    role: 'system',
    content: system.content
      ? systems
        ? systems.join(system.content, toolPrompt, joinWithPrompt)
        : joinWithPrompt(system.content, toolPrompt)
      : toolPrompt,
  };
  return result;
}
