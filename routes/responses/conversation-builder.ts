/**
 * Responses input items → neutral messages. Calls that follow assistant output join that assistant
 * turn (Chat-style upstreams want one assistant message with all its tool_calls), outputs become
 * tool messages with the call's name looked up (the images they return follow the run of outputs as
 * user content), and items that cannot travel to another provider
 * (OpenAI's reasoning blobs, hosted tool calls) are dropped; signed thinking the gateway handed out
 * in a reasoning item comes back as reasoning (signed-reasoning.ts), and any other reasoning item's
 * text comes back as unsigned reasoning.
 */
import { invalidRequest } from '../../src/core/gateway-error.js';
import type { AssistantMessage, FilePart, Message, ReasoningPart, ToolCallPart } from '../../src/core/message.js';
import type { Warning } from '../../src/core/warning.js';
import { parseTextContent, parseToolOutput, parseUserContent } from './parse-message-content.js';
import { customInputArgument } from './parse-responses-tools.js';
import { decodeSignedReasoning } from './signed-reasoning.js';
import type { WireContentPart, WireInputItem } from './responses-request-schema.js';

type Content = string | WireContentPart[];

export class ConversationBuilder {
  private readonly messages: Message[] = [];
  private readonly callNames = new Map<string, string>();
  /**
   * Images and files of the tool outputs just added. They wait until the run of outputs ends: a user
   * message between two outputs of one assistant turn would leave its later calls unanswered, which
   * OpenAI refuses and strict chat templates reject.
   */
  private toolFiles: FilePart[] = [];
  readonly warnings: Warning[] = [];

  /** `param` names the item in errors, e.g. `input[3]`. */
  add(item: WireInputItem, param: string): void {
    const type = item.type ?? 'message';
    const isOutput = type === 'function_call_output' || type === 'custom_tool_call_output';
    // A user message takes the files itself, ahead of its own content.
    if (!isOutput && !(type === 'message' && item.role === 'user')) this.placeToolFiles();
    switch (type) {
      case 'message':
        this.addMessage(item.role as string, item.content as Content, param);
        return;
      case 'function_call':
        this.addCall({ type: 'tool-call', id: item.call_id as string, name: item.name as string, arguments: item.arguments as string });
        return;
      case 'custom_tool_call':
        this.addCall({
          type: 'tool-call',
          id: item.call_id as string,
          name: item.name as string,
          arguments: JSON.stringify({ [customInputArgument]: item.input as string }),
        });
        return;
      case 'function_call_output':
      case 'custom_tool_call_output': {
        const output = parseToolOutput(item.output as Content, `${param}.output`, this.warnings);
        this.addOutput(item.call_id as string, output.text, param);
        // Marked with their call, for an upstream whose tool results take images to put them back inside.
        this.toolFiles.push(...output.files.map((file) => ({ ...file, fromToolCall: item.call_id as string })));
        return;
      }
      case 'reasoning': {
        // Our own signed thinking comes back into the assistant turn it preceded; OpenAI's
        // encrypted_content means nothing to another provider and is dropped, but the item's text is
        // the model's reasoning, which open-weight models need back between tool calls.
        const reasoning = decodeSignedReasoning(item.encrypted_content) ?? reasoningText(item);
        if (reasoning) this.assistantTurn().content.push(reasoning);
        return;
      }
      default:
        this.warnings.push({
          code: 'unsupported-input-item',
          message: `'${param}' has type '${type}', which cannot be sent to another provider; it was dropped.`,
        });
    }
  }

  result(): Message[] {
    this.placeToolFiles();
    return this.messages;
  }

  prepend(message: Message): void {
    this.messages.unshift(message);
  }

  private addMessage(role: string, content: Content, itemParam: string): void {
    const param = `${itemParam}.content`;
    switch (role) {
      case 'system':
      case 'developer':
        this.messages.push({ role: 'system', content: parseTextContent(content, param) });
        return;
      case 'user':
        this.messages.push({ role: 'user', content: [...this.takeToolFiles(), ...parseUserContent(content, param)] });
        return;
      case 'assistant': {
        const text = parseTextContent(content, param);
        if (text !== '') this.assistantTurn().content.push({ type: 'text', text });
        return;
      }
      default:
        throw invalidRequest(`Invalid value for '${itemParam}.role': unknown role '${role}'.`, `${itemParam}.role`);
    }
  }

  private addCall(call: ToolCallPart): void {
    this.callNames.set(call.id, call.name);
    this.assistantTurn().content.push(call);
  }

  /**
   * An output answers a call made before it (in this input or the previous_response_id chain). A lone one
   * would go upstream as a tool message answering nothing, which OpenAI refuses with this 400 and strict chat
   * templates fail on (or the model reads as a stray result): refused here in the same words.
   */
  private addOutput(callId: string, output: string, param: string): void {
    const toolName = this.callNames.get(callId);
    if (toolName === undefined)
      throw invalidRequest(`No tool call found for function call output with call_id ${callId}.`, `${param}.call_id`);
    this.messages.push({ role: 'tool', content: [{ type: 'tool-result', toolCallId: callId, toolName, output }] });
  }

  private takeToolFiles(): FilePart[] {
    const files = this.toolFiles;
    this.toolFiles = [];
    return files;
  }

  /** The files of the outputs before, as a user message of their own (the run of outputs has ended). */
  private placeToolFiles(): void {
    const files = this.takeToolFiles();
    if (files.length) this.messages.push({ role: 'user', content: files });
  }

  /** The assistant message to append to: the last one if the conversation ends with it, else a new one. */
  private assistantTurn(): AssistantMessage {
    const last = this.messages.at(-1);
    if (last?.role === 'assistant') return last;
    const turn: AssistantMessage = { role: 'assistant', content: [] };
    this.messages.push(turn);
    return turn;
  }
}

/**
 * A reasoning item's own text: its `content` (`reasoning_text` parts, the reasoning itself), else its
 * `summary` (`summary_text` parts, which is where the gateway writes an upstream's reasoning).
 */
function reasoningText(item: WireInputItem): ReasoningPart | undefined {
  const texts = (parts: unknown, type: string) =>
    (Array.isArray(parts) ? (parts as { type?: unknown; text?: unknown }[]) : []).flatMap((part) =>
      part.type === type && typeof part.text === 'string' ? [part.text] : [],
    );
  const content = texts(item.content, 'reasoning_text');
  const text = (content.length > 0 ? content : texts(item.summary, 'summary_text')).join('\n\n');
  return text === '' ? undefined : { type: 'reasoning', text };
}
