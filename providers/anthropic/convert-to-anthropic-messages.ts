/** Converts neutral messages into Anthropic's top-level `system` plus strictly alternating turns. */
import {
  assertNever,
  type AssistantMessage,
  type CacheMark,
  type FilePart,
  foldToolResultFiles,
  type ToolResultFiles,
  type Message,
  type SystemMessage,
  type ToolCallPart,
  type ToolResultPart,
  type UserMessage,
  type Warning,
} from '../../src/core/index.js';
import type {
  AnthropicAssistantBlock,
  AnthropicCacheControl,
  AnthropicMessage,
  AnthropicRedactedThinkingBlock,
  AnthropicTextBlock,
  AnthropicThinkingBlock,
  AnthropicToolResultBlock,
  AnthropicToolUseBlock,
  AnthropicUserBlock,
} from './anthropic-messages-body.js';
import { restrictedToolId } from '../restricted-tool-id.js';
import { convertToAnthropicFileBlock, type FileSourceOptions } from './convert-to-anthropic-file-block.js';
import { asRecord } from '../../src/http/read-loose-json.js';

export type AnthropicConversation = {
  system?: string | AnthropicTextBlock[];
  messages: AnthropicMessage[];
  warnings: Warning[];
};

/** The block with the part's cache breakpoint, when it has one. */
export function cached<Block extends { cache_control?: AnthropicCacheControl }>(block: Block, mark: CacheMark | undefined): Block {
  if (mark) block.cache_control = mark;
  return block;
}

/** Text Anthropic takes as a block: it refuses an empty one ("text content blocks must be non-empty") and one of only whitespace. */
function hasText(text: string): boolean {
  return text.trim() !== '';
}

/** Claude's thinking blocks, plain or encrypted, take no cache breakpoint. */
function isThinking(block: AnthropicUserBlock | AnthropicAssistantBlock): block is AnthropicThinkingBlock | AnthropicRedactedThinkingBlock {
  return block.type === 'thinking' || block.type === 'redacted_thinking';
}

/**
 * A text part as a block, or nothing when blank (an assistant's "\n\n" beside its calls, a client's empty part):
 * Anthropic refuses those ("messages: text content blocks must contain non-whitespace text"). A breakpoint on a
 * blank part moves to the block before it, which the client meant to cache up to.
 */
function pushText(blocks: (AnthropicUserBlock | AnthropicAssistantBlock)[], text: string, mark: CacheMark | undefined): void {
  if (hasText(text)) blocks.push(cached<AnthropicTextBlock>({ type: 'text', text }, mark));
  const previous = blocks.at(-1);
  if (!hasText(text) && mark && previous && !isThinking(previous) && !previous.cache_control) cached(previous, mark);
}

/** A file part as Claude's block, or nothing (left out with a warning). */
type FileBlockOf = (part: FilePart) => ReturnType<typeof convertToAnthropicFileBlock>;

function convertUserContent(message: UserMessage, fileBlock: FileBlockOf): AnthropicUserBlock[] {
  const blocks: AnthropicUserBlock[] = [];
  for (const part of message.content) {
    switch (part.type) {
      case 'text':
        pushText(blocks, part.text, part.cache);
        break;
      case 'file': {
        const block = fileBlock(part);
        if (block) blocks.push(cached(block, part.cache));
        break;
      }
      default:
        assertNever(part, 'user content part');
    }
  }
  return blocks;
}

/** `input` must be an object; OpenAI clients send arguments as JSON text, sometimes empty or broken. */
function toToolUseBlock(part: ToolCallPart, warnings: Warning[]): AnthropicToolUseBlock {
  return cached(toolUseBlock(part, warnings), part.cache);
}

function toolUseBlock(part: ToolCallPart, warnings: Warning[]): AnthropicToolUseBlock {
  const block = { type: 'tool_use' as const, id: restrictedToolId(part.id), name: part.name };
  if (part.arguments.trim() === '') return { ...block, input: {} };
  let parsed: unknown;
  try {
    parsed = JSON.parse(part.arguments);
  } catch {
    parsed = undefined;
  }
  const input = asRecord(parsed);
  if (input) return { ...block, input };
  warnings.push({
    code: 'invalid-tool-arguments',
    message: `The arguments of tool call '${part.id}' (${part.name}) are not a JSON object; sent as {} to Anthropic.`,
  });
  return { ...block, input: {} };
}

function convertAssistantContent(message: AssistantMessage, warnings: Warning[]): AnthropicAssistantBlock[] {
  const blocks: AnthropicAssistantBlock[] = [];
  for (const part of message.content) {
    switch (part.type) {
      case 'text':
        pushText(blocks, part.text, part.cache);
        break;
      case 'reasoning':
        // Thinking is replayed only with its signature, which Anthropic verifies; reasoning from
        // other providers (or with the signature lost) cannot be sent back as thinking.
        // https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking#preserving-thinking-blocks
        if (part.signature) blocks.push({ type: 'thinking', thinking: part.text, signature: part.signature });
        break;
      case 'tool-call':
        blocks.push(toToolUseBlock(part, warnings));
        break;
      case 'redacted-reasoning':
        // Encrypted thinking goes back unchanged and in its place, which Claude decrypts and requires in a tool loop.
        // https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking#thinking-redaction
        blocks.push({ type: 'redacted_thinking', data: part.data });
        break;
      default:
        assertNever(part, 'assistant content part');
    }
  }
  return blocks;
}

/**
 * A result with the images and PDFs its tool returned inside it, as Claude's tool_result takes them (computer
 * use's screenshots: https://docs.anthropic.com/en/docs/agents-and-tools/computer-use, "tool_result" with an
 * image block; `ToolResultBlockParam.content` takes text, image, search result and document blocks:
 * anthropics/anthropic-sdk-python src/anthropic/types/tool_result_block_param.py), so the model reads them as
 * the tool's output rather than as the user's next words.
 */
function toToolResultBlock(part: ToolResultPart, files: ToolResultFiles, fileBlock: FileBlockOf): AnthropicToolResultBlock {
  const block: AnthropicToolResultBlock = { type: 'tool_result', tool_use_id: restrictedToolId(part.toolCallId) };
  const returned = files.filesOf(part).flatMap((file) => {
    const block = fileBlock(file);
    return block ? [cached(block, file.cache)] : [];
  });
  // An empty (or blank) result is sent without content: Anthropic treats the two alike and rejects blank text.
  if (returned.length > 0) block.content = [...(hasText(part.output) ? [{ type: 'text' as const, text: part.output }] : []), ...returned];
  else if (hasText(part.output)) block.content = part.output;
  if (part.isError !== undefined) block.is_error = part.isError;
  return cached(block, part.cache);
}

/** Claude's tool results take what its file blocks hold (convert-to-anthropic-file-block.ts): images and PDFs. */
function takesInToolResult(file: FilePart): boolean {
  const mediaType = file.mediaType.toLowerCase();
  return mediaType.startsWith('image/') || mediaType === 'application/pdf';
}

/**
 * In a user turn, tool_result blocks must come before any other content
 * (https://docs.anthropic.com/en/docs/build-with-claude/tool-use/implement-tool-use#handling-tool-use-and-tool-result-content-blocks).
 */
function toolResultsFirst(blocks: AnthropicUserBlock[]): AnthropicUserBlock[] {
  return [...blocks.filter((block) => block.type === 'tool_result'), ...blocks.filter((block) => block.type !== 'tool_result')];
}

/** Anthropic requires user and assistant turns to alternate, so same-role neighbours are merged. */
function appendTurn(turns: AnthropicMessage[], turn: AnthropicMessage): void {
  if (turn.content.length === 0) return;
  const last = turns.at(-1);
  if (last?.role === 'user' && turn.role === 'user') last.content = toolResultsFirst([...last.content, ...turn.content]);
  else if (last?.role === 'assistant' && turn.role === 'assistant') last.content = [...last.content, ...turn.content];
  else turns.push(turn.role === 'user' ? { role: 'user', content: toolResultsFirst(turn.content) } : turn);
}

/**
 * Every system message hoisted into `system`: one text, or, when a cache breakpoint marks one of them, one
 * block each, so that the breakpoint stays where the client put it.
 */
function systemOf(messages: readonly SystemMessage[]): AnthropicConversation['system'] {
  if (messages.length === 0) return undefined;
  if (!messages.some((message) => message.cache)) return messages.map((message) => message.content).join('\n\n');
  return messages.map((message) => cached<AnthropicTextBlock>({ type: 'text', text: message.content }, message.cache));
}

export function convertToAnthropicMessages(messages: Message[], sources: FileSourceOptions = { urlSources: true }): AnthropicConversation {
  const systems: SystemMessage[] = [];
  const turns: AnthropicMessage[] = [];
  const warnings: Warning[] = [];
  const fileBlock: FileBlockOf = (part) => convertToAnthropicFileBlock(part, warnings, sources);
  const files = foldToolResultFiles(messages, takesInToolResult);
  for (const message of files.messages) {
    switch (message.role) {
      // Anthropic has no system role inside `messages`: every system message is hoisted.
      case 'system':
        if (hasText(message.content)) systems.push(message);
        break;
      case 'user':
        appendTurn(turns, { role: 'user', content: convertUserContent(message, fileBlock) });
        break;
      case 'assistant':
        appendTurn(turns, { role: 'assistant', content: convertAssistantContent(message, warnings) });
        break;
      // Tool results travel inside a user turn.
      case 'tool':
        appendTurn(turns, { role: 'user', content: message.content.map((part) => toToolResultBlock(part, files, fileBlock)) });
        break;
      default:
        assertNever(message, 'message role');
    }
  }
  const conversation: AnthropicConversation = { messages: turns, warnings };
  const system = systemOf(systems);
  if (system !== undefined) conversation.system = system;
  return conversation;
}
