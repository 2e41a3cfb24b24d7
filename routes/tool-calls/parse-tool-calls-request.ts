/** The inspector's request bodies → what the ToolCallInspector takes (the same readers as Chat Completions). */
import type { Message } from '../../src/core/message.js';
import type { ToolChoice, ToolDefinition } from '../../src/core/tool-definition.js';
import { invalidRequest } from '../../src/core/gateway-error.js';
import type { AccessPolicy } from '../../src/pipeline/access-policy.js';
import type { InspectionTarget } from '../../src/pipeline/tool-call-inspector.js';
import type { WireTool } from '../chat-completions/chat-completion-request-schema.js';
import { parseChatMessages } from '../chat-completions/parse-chat-messages.js';
import { parseChatTool, parseChatToolChoice } from '../chat-completions/parse-chat-completion-request.js';
import type { BodyValidators } from '../shared/body-validator.js';
import { parseRequestSchema, renderRequestSchema, type ParseBody, type RenderBody } from './tool-calls-request-schema.js';

/** What both bodies share: the family or model the text is for. */
type TargetBody = Pick<ParseBody, 'model' | 'family'>;
type WireCall = NonNullable<RenderBody['calls']>[number];

function targetOf(body: TargetBody, access: AccessPolicy | null): InspectionTarget {
  const target: InspectionTarget = { access };
  if (body.family !== undefined) target.family = body.family;
  if (body.model !== undefined) target.model = body.model;
  return target;
}

function toolsOf(tools: WireTool[] | null | undefined): ToolDefinition[] {
  return (tools ?? []).map(parseChatTool);
}

/**
 * At most this many chunks: each is one parser push, and a body-limit-sized text pushed a character at a
 * time would hold the event loop for tens of seconds. A long reply streamed by a real server is well under it.
 */
const maximumChunks = 100_000;

/** Splits at character (code point) boundaries, as an upstream's text deltas are. */
export function chunkText(text: string, chunking: number | number[] | undefined): string[] {
  if (chunking === undefined) return [text];
  const characters = Array.from(text);
  const sizes = typeof chunking === 'number' ? [chunking] : chunking;
  const chunks: string[] = [];
  for (let start = 0, turn = 0; start < characters.length; turn++) {
    if (turn === maximumChunks) {
      throw invalidRequest(
        `'chunking' would split the ${characters.length}-character text into more than ${maximumChunks} chunks; give larger chunks or a shorter text.`,
        'chunking',
      );
    }
    const size = sizes[turn % sizes.length] as number;
    chunks.push(characters.slice(start, start + size).join(''));
    start += size;
  }
  return chunks;
}

export type ParseInspectionRequest = { target: InspectionTarget; chunks: string[]; tools: ToolDefinition[]; parallelToolCalls?: boolean };

export function parseParseRequest(raw: unknown, validators: BodyValidators, access: AccessPolicy | null): ParseInspectionRequest {
  const body = validators.for<ParseBody>(parseRequestSchema)(raw);
  const request: ParseInspectionRequest = {
    target: targetOf(body, access),
    chunks: chunkText(body.text, body.chunking),
    tools: toolsOf(body.tools),
  };
  if (typeof body.parallel_tool_calls === 'boolean') request.parallelToolCalls = body.parallel_tool_calls;
  return request;
}

export type RenderInspectionRequest = {
  target: InspectionTarget;
  messages: Message[];
  tools: ToolDefinition[];
  toolChoice?: ToolChoice;
  calls: { name: string; arguments: string }[];
};

function argumentsText(value: WireCall['arguments']): string {
  if (value === undefined) return '{}';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** Without `calls`, the calls to show are the ones in the history's assistant turns. */
function callsOf(body: RenderBody, messages: Message[]): { name: string; arguments: string }[] {
  if (body.calls) return body.calls.map((call) => ({ name: call.name, arguments: argumentsText(call.arguments) }));
  return messages.flatMap((message) =>
    message.role === 'assistant'
      ? message.content.flatMap((part) => (part.type === 'tool-call' ? [{ name: part.name, arguments: part.arguments }] : []))
      : [],
  );
}

export function parseRenderRequest(raw: unknown, validators: BodyValidators, access: AccessPolicy | null): RenderInspectionRequest {
  const body = validators.for<RenderBody>(renderRequestSchema)(raw);
  const messages = body.messages?.length ? parseChatMessages(body.messages) : [];
  const request: RenderInspectionRequest = {
    target: targetOf(body, access),
    messages,
    tools: toolsOf(body.tools),
    calls: callsOf(body, messages),
  };
  const toolChoice = parseChatToolChoice(body.tool_choice);
  if (toolChoice) request.toolChoice = toolChoice;
  return request;
}
