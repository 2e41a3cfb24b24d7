/** OpenAI Chat Completions messages (wire) → neutral messages. */
import { joinToolResultParts } from '../../src/core/join-tool-result-parts.js';
import { invalidRequest } from '../../src/core/gateway-error.js';
import type { AssistantMessage, FilePart, Message, TextPart, ToolCallPart, ToolResultPart } from '../../src/core/message.js';
import { lastCacheMark, withCacheMark } from '../shared/wire-cache-mark.js';

import type { WireMessage } from './chat-completion-request-schema.js';

type WirePart = Extract<NonNullable<WireMessage['content']>, readonly unknown[]>[number];

function mediaTypeOfDataUrl(url: string, fallback: string): string {
  const match = /^data:([^;,]+)/.exec(url);
  return match?.[1] ?? fallback;
}

function textOf(content: WireMessage['content'], param: string): string {
  return typeof content === 'string' ? content : textsOf(content, param).join('');
}

function textsOf(content: WireMessage['content'], param: string): string[] {
  if (content === undefined || content === null) return [];
  if (typeof content === 'string') return [content];
  return content.map((part, index) => {
    if (part.type === 'text' && typeof part.text === 'string') return part.text;
    if (part.type === 'refusal' && typeof part.refusal === 'string') return part.refusal;
    throw invalidRequest(`Content part type '${part.type}' is not allowed here.`, `${param}[${index}].type`);
  });
}

/** A user part with the cache breakpoint its wire part carries (`cache_control`, as OpenRouter takes it for Claude). */
function userPart(part: WirePart, param: string): TextPart | FilePart {
  return withCacheMark(userPartContent(part, param), part);
}

function userPartContent(part: WirePart, param: string): TextPart | FilePart {
  switch (part.type) {
    case 'text':
      if (typeof part.text !== 'string') throw invalidRequest(`'${param}.text' must be a string.`, `${param}.text`);
      return { type: 'text', text: part.text };
    case 'image_url': {
      const image = part.image_url as { url?: unknown; detail?: unknown } | string | undefined;
      const url = typeof image === 'string' ? image : image?.url;
      if (typeof url !== 'string') throw invalidRequest(`'${param}.image_url.url' must be a string.`, `${param}.image_url.url`);
      const file: FilePart = { type: 'file', mediaType: mediaTypeOfDataUrl(url, 'image/*'), data: url };
      if (typeof image === 'object' && typeof image.detail === 'string') file.detail = image.detail;
      return file;
    }
    case 'input_audio': {
      const audio = part.input_audio as { data?: unknown; format?: unknown } | undefined;
      if (typeof audio?.data !== 'string')
        throw invalidRequest(`'${param}.input_audio.data' must be a string.`, `${param}.input_audio.data`);
      return { type: 'file', mediaType: `audio/${typeof audio.format === 'string' ? audio.format : 'wav'}`, data: audio.data };
    }
    case 'file': {
      const file = part.file as { file_data?: unknown; filename?: unknown; file_id?: unknown } | undefined;
      if (typeof file?.file_data !== 'string') {
        throw invalidRequest(`'${param}.file' needs file_data; uploaded file ids are not supported by this gateway.`, `${param}.file`);
      }
      const result: FilePart = {
        type: 'file',
        mediaType: mediaTypeOfDataUrl(file.file_data, 'application/octet-stream'),
        data: file.file_data,
      };
      if (typeof file.filename === 'string') result.filename = file.filename;
      return result;
    }
    default:
      throw invalidRequest(`Unsupported content part type '${part.type}'.`, `${param}.type`);
  }
}

function assistantMessage(message: WireMessage, index: number): AssistantMessage {
  const content: AssistantMessage['content'] = [];
  const reasoning = message.reasoning_content ?? message.reasoning;
  if (typeof reasoning === 'string' && reasoning) content.push({ type: 'reasoning', text: reasoning });
  // A declined turn as the openai SDK keeps it (`content: null`, the words in `refusal`) is those words, as a
  // `refusal` content part is: without them the upstream saw an empty assistant turn.
  const text = textOf(message.content, `messages[${index}].content`) || (message.refusal ?? '');
  if (text) content.push({ type: 'text', text });
  for (const [callIndex, call] of (message.tool_calls ?? []).entries()) {
    const args = call.function.arguments;
    const part: ToolCallPart = {
      type: 'tool-call',
      id: call.id ?? `call_${index}_${callIndex}`,
      name: call.function.name,
      arguments: args === undefined ? '{}' : typeof args === 'string' ? args : JSON.stringify(args),
    };
    content.push(part);
  }
  return { role: 'assistant', content };
}

/** A system or developer message, with the breakpoint its parts carry (the last one marked). */
function systemMessage(content: string, parts: WireMessage['content']): Message {
  const message: Message = { role: 'system', content };
  const mark = Array.isArray(parts) ? lastCacheMark(parts) : undefined;
  if (mark) message.cache = mark;
  return message;
}

export function parseChatMessages(messages: WireMessage[]): Message[] {
  const callNames = new Map<string, string>();
  return messages.map((message, index): Message => {
    const param = `messages[${index}].content`;
    switch (message.role) {
      case 'system':
      case 'developer':
        return systemMessage(textOf(message.content, param), message.content);
      case 'user':
        if (typeof message.content === 'string' || message.content === undefined || message.content === null) {
          return { role: 'user', content: [{ type: 'text', text: message.content ?? '' }] };
        }
        return { role: 'user', content: message.content.map((part, partIndex) => userPart(part, `${param}[${partIndex}]`)) };
      case 'assistant': {
        const converted = assistantMessage(message, index);
        for (const part of converted.content) if (part.type === 'tool-call') callNames.set(part.id, part.name);
        return converted;
      }
      case 'tool': {
        const toolCallId = message.tool_call_id as string;
        const part: ToolResultPart = { type: 'tool-result', toolCallId, output: joinToolResultParts(textsOf(message.content, param)) };
        const mark = Array.isArray(message.content) ? lastCacheMark(message.content) : undefined;
        if (mark) part.cache = mark;
        const result: Message = { role: 'tool', content: [part] };
        const toolName = callNames.get(toolCallId);
        if (toolName !== undefined) result.content[0]!.toolName = toolName;
        return result;
      }
    }
  });
}
