/** Neutral messages → Ollama `/api/chat` messages (tool calls as objects, results named by tool). */
import {
  toolResultText,
  assertNever,
  type AssistantMessage,
  type Message,
  type ToolMessage,
  type UserMessage,
  type Warning,
} from '../../src/core/index.js';
import { argumentsObject } from '../arguments-object.js';
import { convertToOllamaImage } from './convert-to-ollama-image.js';
import type { OllamaWireMessage, OllamaWireToolCall } from './ollama-wire-types.js';
import { unsupportedParameterWarning } from './unsupported-parameter-warning.js';

export type OllamaMessagesConversion = { messages: OllamaWireMessage[]; warnings: Warning[] };

export function convertToOllamaMessages(messages: Message[]): OllamaMessagesConversion {
  const converted: OllamaWireMessage[] = [];
  const warnings: Warning[] = [];
  // Tool results may lack their tool's name; Ollama's templates want it, and the call that asked knows it.
  const toolNames = new Map<string, string>();
  for (const message of messages) {
    switch (message.role) {
      case 'system':
        converted.push({ role: 'system', content: message.content });
        break;
      case 'user':
        converted.push(convertUserMessage(message, warnings));
        break;
      case 'assistant':
        converted.push(convertAssistantMessage(message, toolNames));
        break;
      case 'tool':
        converted.push(...convertToolMessage(message, toolNames));
        break;
      default:
        assertNever(message, 'message role');
    }
  }
  return { messages: converted, warnings };
}

function convertUserMessage(message: UserMessage, warnings: Warning[]): OllamaWireMessage {
  const texts: string[] = [];
  const images: string[] = [];
  for (const part of message.content) {
    switch (part.type) {
      case 'text':
        texts.push(part.text);
        break;
      case 'file': {
        const image = convertToOllamaImage(part);
        if (image.type === 'image') images.push(image.base64);
        else warnings.push(unsupportedParameterWarning('file content', image.reason));
        break;
      }
      default:
        assertNever(part, 'user content part');
    }
  }
  const converted: OllamaWireMessage = { role: 'user', content: texts.join('\n') };
  if (images.length > 0) converted.images = images;
  return converted;
}

function convertAssistantMessage(message: AssistantMessage, toolNames: Map<string, string>): OllamaWireMessage {
  const texts: string[] = [];
  const reasoning: string[] = [];
  const toolCalls: OllamaWireToolCall[] = [];
  for (const part of message.content) {
    switch (part.type) {
      case 'text':
        texts.push(part.text);
        break;
      case 'reasoning':
        reasoning.push(part.text);
        break;
      case 'tool-call':
        toolNames.set(part.id, part.name);
        toolCalls.push({
          id: part.id,
          function: { name: part.name, arguments: argumentsObject(part.arguments) },
        });
        break;
      case 'redacted-reasoning':
        // Claude's encrypted reasoning: only Claude can read it.
        break;
      default:
        assertNever(part, 'assistant content part');
    }
  }
  const converted: OllamaWireMessage = { role: 'assistant', content: texts.join('\n') };
  if (reasoning.length > 0) converted.thinking = reasoning.join('\n');
  if (toolCalls.length > 0) converted.tool_calls = toolCalls;
  return converted;
}

function convertToolMessage(message: ToolMessage, toolNames: Map<string, string>): OllamaWireMessage[] {
  return message.content.map((result) => {
    const converted: OllamaWireMessage = { role: 'tool', content: toolResultText(result) };
    const toolName = result.toolName ?? toolNames.get(result.toolCallId);
    if (toolName !== undefined) converted.tool_name = toolName;
    // Newer Ollama servers link results to calls by id; older ones ignore the field.
    converted.tool_call_id = result.toolCallId;
    return converted;
  });
}
