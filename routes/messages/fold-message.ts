/**
 * Folds the neutral event stream into one Anthropic `Message` (the non-streaming response) by
 * accumulating the very events the stream would send, as Anthropic's SDKs do: one code path.
 */
import { findTooDeepValue } from '../../src/core/find-too-deep-value.js';
import type { GatewayError } from '../../src/core/gateway-error.js';
import { foldEvents, type StreamEvent } from '../../src/core/stream-event.js';
import { deepestToolArguments } from '../../src/core/tool-arguments-depth.js';
import type { Warning } from '../../src/core/warning.js';
import type { WireDiagnostics } from '../shared/render-diagnostics.js';
import { AnthropicStreamEvents, type AnthropicStreamEvent } from './anthropic-stream-events.js';

type ContentBlock =
  | { type: 'text'; text: string }
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'redacted_thinking'; data: string }
  | { type: 'tool_use'; id: string; name: string; input: unknown };

export type FoldResult = { body: Record<string, unknown> } | { error: GatewayError };

/**
 * Tool input must be an object on the wire; unreadable argument text becomes `{}`. No warning of its own:
 * the stream says the same (see tool-input-gate.ts and the pipeline's argument repair), and its diagnostics
 * are the Message's, so a streamed and a non-streamed reply report the same things.
 * Text nested deeper than any real call (an upstream's native call, passed on as received) is the one
 * exception: JSON.parse reads it, but the Message holding it could not be written (JSON.stringify
 * overflowed the stack: a 500). Such a call is unreadable here, as the prompted lane's reader finds it, and
 * says so; a stream, which needs no Message, passes the text as received.
 */
function parseToolInput(json: string): { input: unknown; tooDeep: boolean } {
  if (json.trim() === '') return { input: {}, tooDeep: false };
  try {
    const parsed: unknown = JSON.parse(json);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
      const tooDeep = findTooDeepValue(parsed, deepestToolArguments) !== undefined;
      return tooDeep ? { input: {}, tooDeep } : { input: parsed, tooDeep };
    }
  } catch {
    // Unreadable JSON; the stream passed it as received, which a Message body cannot hold.
  }
  return { input: {}, tooDeep: false };
}

function tooDeepWarning(block: { id: string; name: string }): Warning {
  return {
    code: 'invalid-tool-arguments',
    message: `The arguments of tool call '${block.id}' (${block.name}) nest deeper than ${deepestToolArguments} levels, too deep to read; its input is {}.`,
  };
}

function withWarnings(diagnostics: WireDiagnostics | undefined, warnings: Warning[]): WireDiagnostics | undefined {
  if (warnings.length === 0) return diagnostics && { ...diagnostics };
  return { ...diagnostics, warnings: [...(diagnostics?.warnings ?? []), ...warnings] };
}

export async function foldMessage(events: AsyncIterable<StreamEvent>, meta: { id: string; model: string }): Promise<FoldResult> {
  const renderer = new AnthropicStreamEvents(meta);
  const content: ContentBlock[] = [];
  const toolJson = new Map<number, string>();
  const inputWarnings: Warning[] = [];

  const accumulate = (event: AnthropicStreamEvent): Record<string, unknown> | undefined => {
    switch (event.type) {
      case 'content_block_start':
        content[event.index] = { ...event.content_block } as ContentBlock;
        if (event.content_block.type === 'tool_use') toolJson.set(event.index, '');
        return undefined;
      case 'content_block_delta': {
        const block = content[event.index];
        const delta = event.delta;
        if (block?.type === 'text' && delta.type === 'text_delta') block.text += delta.text;
        else if (block?.type === 'thinking' && delta.type === 'thinking_delta') block.thinking += delta.thinking;
        else if (block?.type === 'thinking' && delta.type === 'signature_delta') block.signature += delta.signature;
        else if (block?.type === 'tool_use' && delta.type === 'input_json_delta')
          toolJson.set(event.index, (toolJson.get(event.index) ?? '') + delta.partial_json);
        return undefined;
      }
      case 'content_block_stop': {
        const block = content[event.index];
        if (block?.type !== 'tool_use') return undefined;
        const { input, tooDeep } = parseToolInput(toolJson.get(event.index) ?? '');
        block.input = input;
        if (tooDeep) inputWarnings.push(tooDeepWarning(block));
        return undefined;
      }
      case 'message_delta': {
        const body: Record<string, unknown> = {
          id: meta.id,
          type: 'message',
          role: 'assistant',
          model: meta.model,
          content,
          stop_reason: event.delta.stop_reason,
          stop_sequence: event.delta.stop_sequence,
          usage: event.usage,
        };
        if (event.delta.stop_details) body.stop_details = event.delta.stop_details;
        const diagnostics = withWarnings(event.diagnostics, inputWarnings);
        if (diagnostics) body.diagnostics = diagnostics;
        return body;
      }
      default:
        return undefined;
    }
  };

  const result = await foldEvents<FoldResult>(events, (event) => {
    if (event.type === 'error') return { error: event.error };
    for (const wire of renderer.push(event)) {
      const body = accumulate(wire);
      if (body) return { body };
    }
    return undefined;
  });
  if (result === undefined) throw new Error('event stream ended without finish or error');
  return result;
}
