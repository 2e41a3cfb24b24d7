/**
 * Neutral messages to Gemini's `systemInstruction` and `contents` (roles `user` and `model`).
 * Tool results go back as `functionResponse` parts of a user turn, named after their call, and
 * consecutive turns of one role are merged: Gemini wants all responses of parallel calls in one turn.
 */
import type { AssistantMessage, FilePart, Message, ToolMessage } from '../../src/core/index.js';
import { assertNever } from '../../src/core/assert-never.js';
import { decodeGeminiCallId } from './gemini-tool-call-id.js';
import type { GeminiContent, GeminiPart } from './gemini-wire-types.js';

export type GeminiConversation = {
  systemInstruction?: { parts: { text: string }[] };
  contents: GeminiContent[];
};

const dataUrl = /^data:([^;,]*)(?:;[^;,]*)*?(;base64)?,/i;

/** Images and other files: `data:` URLs and bare base64 as `inlineData`, URLs as `fileData`. */
function filePartOf(part: FilePart): GeminiPart {
  if (/^https?:\/\//i.test(part.data)) return { fileData: { mimeType: part.mediaType, fileUri: part.data } };
  const header = dataUrl.exec(part.data);
  if (!header) return { inlineData: { mimeType: part.mediaType, data: part.data } };
  const payload = part.data.slice(header[0].length);
  const data = header[2] ? payload : Buffer.from(decodeURIComponent(payload), 'utf8').toString('base64');
  return { inlineData: { mimeType: header[1] || part.mediaType, data } };
}

function parseArguments(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text || '{}');
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : { value };
  } catch {
    // A client's broken history: Gemini takes an object only, so the text travels inside one.
    return { arguments: text };
  }
}

function modelParts(message: AssistantMessage, callNames: Map<string, string>): GeminiPart[] {
  const parts: GeminiPart[] = [];
  // A thought's signature belongs on the part that followed the thought (the text or call it led to).
  let pendingSignature: string | undefined;
  for (const part of message.content) {
    switch (part.type) {
      case 'reasoning':
        if (part.signature) pendingSignature = part.signature;
        break;
      case 'text':
        parts.push(pendingSignature ? { text: part.text, thoughtSignature: pendingSignature } : { text: part.text });
        pendingSignature = undefined;
        break;
      case 'tool-call': {
        const identity = decodeGeminiCallId(part.id);
        callNames.set(part.id, part.name);
        const signature = identity.thoughtSignature ?? pendingSignature;
        const call: GeminiPart = { functionCall: { id: identity.id, name: part.name, args: parseArguments(part.arguments) } };
        if (signature) call.thoughtSignature = signature;
        parts.push(call);
        pendingSignature = undefined;
        break;
      }
      case 'redacted-reasoning':
        // Claude's encrypted reasoning: only Claude can read it.
        break;
      default:
        assertNever(part, 'assistant part');
    }
  }
  return parts;
}

function responseParts(message: ToolMessage, callNames: Map<string, string>): GeminiPart[] {
  return message.content.map((result) => ({
    functionResponse: {
      id: decodeGeminiCallId(result.toolCallId).id,
      name: result.toolName ?? callNames.get(result.toolCallId) ?? 'unknown_function',
      response: result.isError ? { error: result.output } : { result: result.output },
    },
  }));
}

function append(contents: GeminiContent[], role: GeminiContent['role'], parts: GeminiPart[]): void {
  if (parts.length === 0) return;
  const last = contents.at(-1);
  if (last?.role === role) last.parts.push(...parts);
  else contents.push({ role, parts });
}

export function convertToGeminiContents(messages: readonly Message[]): GeminiConversation {
  const system: { text: string }[] = [];
  const contents: GeminiContent[] = [];
  const callNames = new Map<string, string>();
  for (const message of messages) {
    switch (message.role) {
      case 'system':
        system.push({ text: message.content });
        break;
      case 'user':
        append(
          contents,
          'user',
          message.content.map((part) => (part.type === 'text' ? { text: part.text } : filePartOf(part))),
        );
        break;
      case 'assistant':
        append(contents, 'model', modelParts(message, callNames));
        break;
      case 'tool':
        append(contents, 'user', responseParts(message, callNames));
        break;
      default:
        assertNever(message, 'message role');
    }
  }
  const conversation: GeminiConversation = { contents };
  if (system.length > 0) conversation.systemInstruction = { parts: system };
  return conversation;
}
