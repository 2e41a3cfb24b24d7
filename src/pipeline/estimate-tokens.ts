/**
 * Token counts estimated, not tokenized: the gateway fronts many model families with different
 * vocabularies, so it counts ⌈characters / 4⌉ (the usual rule of thumb for English and code) over the
 * neutral system, messages and tools, plus a flat amount per image or document. The Messages API's
 * `count_tokens` answers with it, and a stream cut off before its usage arrived (or embeddings whose upstream
 * counted nothing) is charged with it.
 */
import { assertNever } from '../core/assert-never.js';
import type { ChatInput } from '../core/chat-request.js';
import type { Message } from '../core/message.js';

const charactersPerToken = 4;
/** Anthropic's ceiling for one image (about 1.15 megapixels ≈ 1,600 tokens, docs "Vision"). */
const tokensPerFile = 1_600;

function measureMessage(message: Message): { characters: number; files: number } {
  switch (message.role) {
    case 'system':
      return { characters: message.content.length, files: 0 };
    case 'user': {
      let characters = 0;
      let files = 0;
      for (const part of message.content) {
        if (part.type === 'text') characters += part.text.length;
        else files++;
      }
      return { characters, files };
    }
    case 'assistant': {
      let characters = 0;
      for (const part of message.content) {
        if (part.type === 'tool-call') characters += part.name.length + part.arguments.length;
        // Encrypted reasoning is read back as the tokens it stands for; its data is the nearest measure at hand.
        else if (part.type === 'redacted-reasoning') characters += part.data.length;
        else characters += part.text.length;
      }
      return { characters, files: 0 };
    }
    case 'tool':
      return { characters: message.content.reduce((sum, part) => sum + part.output.length, 0), files: 0 };
    default:
      return assertNever(message, 'message role');
  }
}

export function estimateInputTokens(input: Pick<ChatInput, 'messages' | 'tools'>): number {
  let characters = 0;
  let files = 0;
  for (const message of input.messages) {
    const measured = measureMessage(message);
    characters += measured.characters;
    files += measured.files;
  }
  for (const tool of input.tools ?? []) {
    characters += tool.name.length + (tool.description?.length ?? 0) + JSON.stringify(tool.parameters).length;
  }
  return Math.ceil(characters / charactersPerToken) + files * tokensPerFile;
}

/** The tokens of text generated (content, reasoning, call names and arguments), by the same rule. */
export function estimateTextTokens(characters: number): number {
  return Math.ceil(characters / charactersPerToken);
}

/**
 * The input of an embeddings request (`input` as OpenAI takes it): each text by the same rule (each is
 * tokenized apart), and token ids as what they are, one token each.
 */
export function estimateEmbeddingInputTokens(
  input: string | readonly string[] | readonly number[] | readonly (readonly number[])[],
): number {
  if (typeof input === 'string') return estimateTextTokens(input.length);
  let tokens = 0;
  for (const item of input)
    tokens += typeof item === 'string' ? estimateTextTokens(item.length) : typeof item === 'number' ? 1 : item.length;
  return tokens;
}
