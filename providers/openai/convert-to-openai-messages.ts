/** Neutral messages → OpenAI Chat Completions messages. */
import { assertNever } from '../../src/core/assert-never.js';
import type { FilePart, Message, TextPart } from '../../src/core/message.js';
import { toolResultText } from '../../src/core/tool-result-text.js';
import { argumentsObjectText } from '../arguments-object.js';
import type { ReasoningField } from '../../src/core/reasoning-field.js';

type OpenAiContentPart =
  | { type: 'text'; text: string }
  | { type: 'image_url'; image_url: { url: string; detail?: string } }
  | { type: 'input_audio'; input_audio: { data: string; format: string } }
  | { type: 'file'; file: { file_data?: string; filename?: string } };

export type OpenAiMessage = Record<string, unknown>;

function toDataUrl(part: FilePart): string {
  return /^(https?:|data:)/.test(part.data) ? part.data : `data:${part.mediaType};base64,${part.data}`;
}

function convertUserPart(part: TextPart | FilePart): OpenAiContentPart {
  if (part.type === 'text') return { type: 'text', text: part.text };
  if (part.mediaType.startsWith('image/')) {
    const image: { url: string; detail?: string } = { url: toDataUrl(part) };
    if (part.detail !== undefined) image.detail = part.detail;
    return { type: 'image_url', image_url: image };
  }
  if (part.mediaType.startsWith('audio/')) {
    const data = part.data.replace(/^data:[^,]*,/, '');
    return { type: 'input_audio', input_audio: { data, format: part.mediaType.slice('audio/'.length) } };
  }
  const file: { file_data?: string; filename?: string } = { file_data: toDataUrl(part) };
  if (part.filename !== undefined) file.filename = part.filename;
  return { type: 'file', file };
}

export type OpenAiMessageOptions = {
  /**
   * The server parses each earlier call's arguments into an object (vLLM, SGLang, llama-server):
   * arguments that are not one go as an object holding their text (arguments-object.ts).
   */
  argumentsAsObjects?: boolean;
  /** The field an assistant turn's reasoning is replayed in, for a server that takes it; absent: not replayed. */
  reasoningField?: ReasoningField;
  /** With `reasoningField`: only the turns after this index carry their reasoning (the template drops the others); absent: every turn. */
  reasoningAfter?: number;
};

export function convertToOpenAiMessages(messages: Message[], options: OpenAiMessageOptions = {}): OpenAiMessage[] {
  const argumentsText = options.argumentsAsObjects === true ? argumentsObjectText : (text: string) => text;
  const result: OpenAiMessage[] = [];
  const reasoningAfter = options.reasoningAfter ?? -1;
  for (const [index, message] of messages.entries()) {
    switch (message.role) {
      case 'system':
        result.push({ role: 'system', content: message.content });
        break;
      case 'user': {
        // One text part travels as a plain string (every server takes it); several stay separate parts
        // rather than being glued together (Claude Code sends a <system-reminder> block before the prompt).
        const single = message.content.length === 1 && message.content[0]?.type === 'text';
        result.push({ role: 'user', content: single ? (message.content[0] as TextPart).text : message.content.map(convertUserPart) });
        break;
      }
      case 'assistant': {
        const text = message.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('');
        const calls = message.content.flatMap((part) =>
          part.type === 'tool-call'
            ? [{ id: part.id, type: 'function', function: { name: part.name, arguments: argumentsText(part.arguments) } }]
            : [],
        );
        const converted: OpenAiMessage = { role: 'assistant', content: text === '' && calls.length ? null : text };
        if (calls.length) converted.tool_calls = calls;
        // Reasoning parts are replayed only where asked: several OpenAI-compatible servers reject reasoning_content in input.
        if (options.reasoningField !== undefined && index > reasoningAfter) {
          const reasoning = message.content.flatMap((part) => (part.type === 'reasoning' ? [part.text] : [])).join('');
          if (reasoning !== '') converted[options.reasoningField] = reasoning;
        }
        result.push(converted);
        break;
      }
      case 'tool':
        for (const part of message.content) result.push({ role: 'tool', tool_call_id: part.toolCallId, content: toolResultText(part) });
        break;
      default:
        assertNever(message, 'message role');
    }
  }
  return result;
}
