/**
 * Files a tool returned (computer use's screenshots, an image a tool read), put back inside the tool results
 * they came from, for an upstream whose tool results take them: Claude's `tool_result.content` takes image
 * blocks, Bedrock's `toolResult.content` takes `image` blocks. The routes send such a file as user content
 * after the results (`FilePart.fromToolCall`), where every other upstream wants it.
 */
import type { FilePart, Message, ToolResultPart } from './message.js';

export type ToolResultFiles = {
  /** The messages without the files that went back into their results (and without turns left empty). */
  messages: Message[];
  /** The files of one result, in the order they came. */
  filesOf: (result: ToolResultPart) => readonly FilePart[];
};

/**
 * `takes` says which files the upstream's tool results hold (images only, say); the others stay where they
 * are. A file goes back only into a result before it (the latest with its call's id), never ahead of it.
 */
export function foldToolResultFiles(messages: readonly Message[], takes: (file: FilePart) => boolean): ToolResultFiles {
  const results = new Map<string, ToolResultPart>();
  const filesByResult = new Map<ToolResultPart, FilePart[]>();
  const folded: Message[] = [];
  for (const message of messages) {
    if (message.role === 'tool') for (const part of message.content) results.set(part.toolCallId, part);
    if (message.role !== 'user') {
      folded.push(message);
      continue;
    }
    const kept = message.content.filter((part) => {
      const result = part.type === 'file' && part.fromToolCall !== undefined ? results.get(part.fromToolCall) : undefined;
      if (!result || part.type !== 'file' || !takes(part)) return true;
      filesByResult.set(result, [...(filesByResult.get(result) ?? []), part]);
      return false;
    });
    if (kept.length === message.content.length) folded.push(message);
    else if (kept.length > 0) folded.push({ ...message, content: kept });
  }
  return { messages: folded, filesOf: (result) => filesByResult.get(result) ?? [] };
}
