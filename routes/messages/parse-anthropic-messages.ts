/**
 * Anthropic `system` + `messages` (wire) → neutral messages. Tool results become `tool` messages,
 * thinking with a signature becomes a signed ReasoningPart, redacted thinking a RedactedReasoningPart, and
 * `role: "system"` messages stay in place.
 */
import { joinToolResultParts } from '../../src/core/join-tool-result-parts.js';
import { invalidRequest } from '../../src/core/gateway-error.js';
import type { AssistantMessage, FilePart, Message, TextPart, ToolCallPart, ToolResultPart } from '../../src/core/message.js';
import type { Warning } from '../../src/core/warning.js';
import type { WireMessage, WireSystem } from './messages-request-schema.js';
import { lastCacheMark, withCacheMark } from '../shared/wire-cache-mark.js';

/** One content block: only `type` is typed, since the schema checks each type's fields through if/then. */
type WireBlock = Exclude<WireMessage['content'], string>[number];

type Source = Record<string, unknown> & { type: string };

function unsupportedBlock(type: string, where: string): Warning {
  return { code: 'unsupported-content', message: `A '${type}' content block in ${where} has no neutral form and was left out.` };
}

/** base64 and url sources as a data: or http(s) URL, which every provider adapter reads. */
function fileFromSource(source: Source, fallbackMediaType: string, param: string): FilePart {
  switch (source.type) {
    case 'base64': {
      const mediaType = typeof source.media_type === 'string' ? source.media_type : fallbackMediaType;
      if (typeof source.data !== 'string') throw invalidRequest(`'${param}.data' must be a base64 string.`, `${param}.data`);
      return { type: 'file', mediaType, data: `data:${mediaType};base64,${source.data}` };
    }
    case 'url':
      if (typeof source.url !== 'string') throw invalidRequest(`'${param}.url' must be a string.`, `${param}.url`);
      return { type: 'file', mediaType: fallbackMediaType, data: source.url };
    default:
      // `file` sources point into Anthropic's Files API, which no other upstream can read.
      throw invalidRequest(
        `Invalid value for '${param}.type': source type '${source.type}' is not supported by this gateway (use base64 or url).`,
        `${param}.type`,
      );
  }
}

/** Plain-text and content-block documents are text to every model; PDFs are files. */
function documentPart(block: WireBlock, param: string): TextPart | FilePart {
  const source = block.source as Source;
  if (source.type === 'text' && typeof source.data === 'string') return { type: 'text', text: source.data };
  if (source.type === 'content') return { type: 'text', text: joinTexts(source.content, `${param}.source.content`) };
  const file = fileFromSource(source, 'application/pdf', `${param}.source`);
  if (typeof block.title === 'string') file.filename = block.title;
  return file;
}

function joinTexts(content: unknown, param: string, separator = ''): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((block: WireBlock, index) => {
      if (block.type === 'text' && typeof block.text === 'string') return block.text;
      throw invalidRequest(`Only text blocks are allowed in '${param}', not '${String(block.type)}'.`, `${param}[${index}].type`);
    })
    .join(separator);
}

/**
 * A tool result's text; images in it follow as user content, since neutral results are text-only, each
 * marked with its call so that an upstream whose tool results take images puts it back inside.
 */
function toolResult(block: WireBlock, param: string, callNames: Map<string, string>): { part: ToolResultPart; files: FilePart[] } {
  const toolCallId = block.tool_use_id as string;
  const texts: string[] = [];
  const files: FilePart[] = [];
  if (typeof block.content === 'string') texts.push(block.content);
  else if (Array.isArray(block.content)) {
    for (const [index, item] of (block.content as WireBlock[]).entries()) {
      const itemParam = `${param}.content[${index}]`;
      if (item.type === 'text' && typeof item.text === 'string') texts.push(item.text);
      else if (item.type === 'image') files.push(fileFromSource(item.source as Source, 'image/*', `${itemParam}.source`));
      else if (item.type === 'document') {
        const part = documentPart(item, itemParam);
        if (part.type === 'text') texts.push(part.text);
        else files.push(part);
      }
    }
  }
  for (const file of files) file.fromToolCall = toolCallId;
  const part: ToolResultPart = { type: 'tool-result', toolCallId, output: joinToolResultParts(texts) };
  const toolName = callNames.get(toolCallId);
  if (toolName !== undefined) part.toolName = toolName;
  if (typeof block.is_error === 'boolean') part.isError = block.is_error;
  return { part: withCacheMark(part, block), files };
}

/**
 * A user turn splits into `tool` messages and user messages, in the order the blocks came. The images of
 * consecutive tool results (parallel calls, each reading a file) follow the last of them: a user message
 * between two tool messages would leave the earlier calls answered and the rest not, which OpenAI refuses
 * ("tool_call_ids did not have response messages") and strict chat templates reject.
 */
function userMessages(blocks: WireBlock[], param: string, callNames: Map<string, string>, warnings: Warning[]): Message[] {
  const messages: Message[] = [];
  let pending: (TextPart | FilePart)[] = [];
  /** Whether `pending` holds the client's own blocks, not only files carried out of tool results. */
  let pendingHasUserBlocks = false;
  const flush = () => {
    if (pending.length) messages.push({ role: 'user', content: pending });
    pending = [];
    pendingHasUserBlocks = false;
  };
  const addUserBlock = (part: TextPart | FilePart) => {
    pending.push(part);
    pendingHasUserBlocks = true;
  };
  for (const [index, block] of blocks.entries()) {
    const blockParam = `${param}[${index}]`;
    switch (block.type) {
      case 'text':
        addUserBlock(withCacheMark<TextPart>({ type: 'text', text: block.text as string }, block));
        break;
      case 'image':
        addUserBlock(withCacheMark(fileFromSource(block.source as Source, 'image/*', `${blockParam}.source`), block));
        break;
      case 'document':
        addUserBlock(withCacheMark(documentPart(block, blockParam), block));
        break;
      case 'tool_result': {
        if (pendingHasUserBlocks) flush();
        const { part, files } = toolResult(block, blockParam, callNames);
        messages.push({ role: 'tool', content: [part] });
        pending.push(...files);
        break;
      }
      default:
        warnings.push(unsupportedBlock(block.type, param));
    }
  }
  flush();
  return messages;
}

function assistantMessage(blocks: WireBlock[], param: string, callNames: Map<string, string>, warnings: Warning[]): AssistantMessage {
  const content: AssistantMessage['content'] = [];
  for (const block of blocks) {
    switch (block.type) {
      case 'text':
        content.push(withCacheMark<TextPart>({ type: 'text', text: block.text as string }, block));
        break;
      case 'thinking': {
        const signature = block.signature;
        content.push(
          typeof signature === 'string' && signature !== ''
            ? { type: 'reasoning', text: block.thinking as string, signature }
            : { type: 'reasoning', text: block.thinking as string },
        );
        break;
      }
      case 'redacted_thinking':
        // Encrypted reasoning only Claude can read: kept in its place, for Claude needs a tool loop's last turn
        // back unchanged (https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking#thinking-redaction);
        // adapters to other models leave it out. Checked here, not in the schema, so plain requests pay nothing.
        if (typeof block.data !== 'string' || block.data === '') {
          const blockParam = `${param}[${blocks.indexOf(block)}]`;
          throw invalidRequest(`'${blockParam}.data' must be a non-empty string.`, `${blockParam}.data`);
        }
        content.push({ type: 'redacted-reasoning', data: block.data });
        break;
      case 'tool_use': {
        const id = block.id as string;
        const name = block.name as string;
        callNames.set(id, name);
        content.push(withCacheMark<ToolCallPart>({ type: 'tool-call', id, name, arguments: JSON.stringify(block.input) }, block));
        break;
      }
      default:
        warnings.push(unsupportedBlock(block.type, param));
    }
  }
  return { role: 'assistant', content };
}

/**
 * Claude Code opens its system prompt with an `x-anthropic-billing-header: cc_version=…` block meant
 * for Anthropic's billing; to any other model it is noise at the very start of the prompt, where it
 * also defeats prefix caching on local servers when its fingerprint changes, so it is left out.
 */
const billingHeaderPrefix = 'x-anthropic-billing-header:';

export function systemText(system: WireSystem): string {
  if (typeof system === 'string') return system;
  return system
    .map((block) => block.text)
    .filter((text) => !text.startsWith(billingHeaderPrefix))
    .join('\n\n');
}

/** The system prompt as one neutral message, with the breakpoint its blocks carry (Claude Code marks the last). */
function systemMessage(content: string, blocks: unknown): Message {
  const message: Message = { role: 'system', content };
  const mark = Array.isArray(blocks) ? lastCacheMark(blocks as object[]) : undefined;
  if (mark) message.cache = mark;
  return message;
}

export function parseAnthropicMessages(system: WireSystem | undefined, messages: WireMessage[], warnings: Warning[]): Message[] {
  const result: Message[] = [];
  if (system !== undefined) {
    const text = systemText(system);
    if (text !== '') result.push(systemMessage(text, system));
  }
  const callNames = new Map<string, string>();
  for (const [index, message] of messages.entries()) {
    const param = `messages[${index}].content`;
    const blocks: WireBlock[] = typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
    switch (message.role) {
      case 'system':
        result.push(systemMessage(joinTexts(message.content, param, '\n\n'), message.content));
        break;
      case 'user':
        result.push(...userMessages(blocks, param, callNames, warnings));
        break;
      case 'assistant':
        result.push(assistantMessage(blocks, param, callNames, warnings));
        break;
    }
  }
  return result;
}
