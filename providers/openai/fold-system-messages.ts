/** Folds every system message into one leading system message, for OpenAI-compatible servers. */
import type { Message, SystemMessage } from '../../src/core/message.js';

/**
 * Claude Code puts `role: "system"` messages mid-conversation, and Responses clients send
 * `developer` items after the first turn. OpenAI takes system messages anywhere, but the chat
 * templates behind most OpenAI-compatible servers do not: Qwen's and Llama's render only a leading
 * system message, and vLLM and llama.cpp reject a late one ("System message must be at the
 * beginning"). So every system message's text joins the first one, in order, separated by a blank
 * line, and the rest of the conversation keeps its order. A conversation that already has at most
 * one system message, at the start, is returned as it is (no copy on the hot path).
 */
export function foldSystemMessages(messages: Message[]): Message[] {
  let systemCount = 0;
  for (const [index, message] of messages.entries()) {
    if (message.role !== 'system') continue;
    systemCount++;
    if (index > 0 || systemCount > 1) return fold(messages);
  }
  return messages;
}

function fold(messages: Message[]): Message[] {
  const texts: string[] = [];
  const rest: Message[] = [];
  for (const message of messages) {
    if (message.role !== 'system') rest.push(message);
    else if (message.content !== '') texts.push(message.content);
  }
  if (texts.length === 0) return rest;
  const leading: SystemMessage = { role: 'system', content: texts.join('\n\n') };
  return [leading, ...rest];
}
