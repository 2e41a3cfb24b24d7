/** Folds the neutral event stream into one `chat.completion` body (the non-streaming response). */
import { assertNever } from '../../src/core/assert-never.js';
import type { GatewayError } from '../../src/core/gateway-error.js';
import type { StreamEvent } from '../../src/core/stream-event.js';
import { renderDiagnostics } from '../shared/render-diagnostics.js';
import { toOpenAiFinishReason, toOpenAiUsage } from '../shared/openai-wire.js';

type WireToolCall = { id: string; type: 'function'; function: { name: string; arguments: string } };

export type FoldResult = { body: Record<string, unknown> } | { error: GatewayError };

export async function foldChatCompletion(
  events: AsyncIterable<StreamEvent>,
  meta: { id: string; created: number; model: string },
): Promise<FoldResult> {
  let content = '';
  let reasoning = '';
  const toolCalls: WireToolCall[] = [];
  for await (const event of events) {
    switch (event.type) {
      case 'response-start':
      case 'reasoning-signature':
        break;
      case 'text-delta':
        content += event.delta;
        break;
      case 'reasoning-delta':
        reasoning += event.delta;
        break;
      case 'tool-call-start':
        toolCalls[event.index] = { id: event.id, type: 'function', function: { name: event.name, arguments: '' } };
        break;
      case 'tool-call-delta':
        break;
      case 'tool-call-end': {
        const call = toolCalls[event.index];
        if (call) call.function.arguments = event.arguments;
        break;
      }
      case 'error':
        return { error: event.error };
      case 'finish': {
        const message: Record<string, unknown> = {
          role: 'assistant',
          content: content === '' && toolCalls.length ? null : content,
          refusal: null,
        };
        if (toolCalls.length) message.tool_calls = toolCalls.filter(Boolean);
        if (reasoning) message.reasoning_content = reasoning;
        const body: Record<string, unknown> = {
          id: meta.id,
          object: 'chat.completion',
          created: meta.created,
          model: meta.model,
          choices: [{ index: 0, message, logprobs: null, finish_reason: toOpenAiFinishReason(event.reason) }],
        };
        const usage = toOpenAiUsage(event.usage);
        if (usage) body.usage = usage;
        const diagnostics = renderDiagnostics(event.diagnostics);
        if (diagnostics) body.diagnostics = diagnostics;
        return { body };
      }
      default:
        assertNever(event, 'stream event');
    }
  }
  throw new Error('event stream ended without finish or error');
}
