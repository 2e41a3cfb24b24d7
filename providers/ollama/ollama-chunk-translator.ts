/** Turns `/api/chat` stream chunks into neutral events: reasoning, text, whole tool calls, finish. */
import type { StreamEvent } from '../../src/core/index.js';
import { generateCallId } from '../../src/core/random-id.js';
import { stringifyDeepJson } from '../../src/core/stringify-deep-json.js';
import { readTokenLogprobs } from '../read-token-logprobs.js';
import { mapOllamaDoneReason } from './map-ollama-done-reason.js';
import { mapOllamaUsage } from './map-ollama-usage.js';
import { OllamaContentLogprobs } from './ollama-content-logprobs.js';

/** Chunks are read loosely: a field of the wrong type is ignored rather than failing the stream. */
export class OllamaChunkTranslator {
  private toolCallCount = 0;
  private done = false;
  /** Made at the first chunk with `logprobs` (asked for): a plain reply reads one absent member per chunk. */
  private logprobs: OllamaContentLogprobs | undefined;

  /** True once the `done: true` chunk was translated; later chunks are ignored. */
  get finished(): boolean {
    return this.done;
  }

  translate(chunk: unknown): StreamEvent[] {
    if (this.done || !isRecord(chunk)) return [];
    const events: StreamEvent[] = [];
    const message = chunk.message;
    // A top-level list beside `message` (api/types.go, ChatResponse.Logprobs), present only when asked for.
    if (chunk.logprobs !== undefined) this.logprobs ??= new OllamaContentLogprobs();
    if (isRecord(message)) {
      // Empty strings are "nothing this chunk"; whitespace-only text is content and must pass.
      const thinking = typeof message.thinking === 'string' && message.thinking !== '' ? message.thinking : undefined;
      const content = typeof message.content === 'string' ? message.content : '';
      const calls = Array.isArray(message.tool_calls) && message.tool_calls.length > 0 ? (message.tool_calls as unknown[]) : undefined;
      if (thinking !== undefined) events.push({ type: 'reasoning-delta', delta: thinking });
      const tokens = this.logprobs?.read(readTokenLogprobs(chunk.logprobs), content, thinking !== undefined || calls !== undefined);
      if (content !== '')
        events.push(tokens ? { type: 'text-delta', delta: content, logprobs: tokens } : { type: 'text-delta', delta: content });
      if (calls) for (const call of calls) events.push(...this.translateToolCall(call));
    }
    if (chunk.done === true) {
      this.done = true;
      const finish: StreamEvent = {
        type: 'finish',
        reason: mapOllamaDoneReason(chunk.done_reason, this.toolCallCount > 0),
        usage: mapOllamaUsage(chunk),
      };
      const warning = this.logprobs?.warning();
      if (warning) finish.diagnostics = { warnings: [warning] };
      events.push(finish);
    }
    return events;
  }

  /** Ollama sends each call whole, so one call is a start, one delta and an end. */
  private translateToolCall(call: unknown): StreamEvent[] {
    if (!isRecord(call) || !isRecord(call.function) || typeof call.function.name !== 'string') return [];
    // Indexes run 0..n across the whole stream, whatever numbering the upstream gives its calls.
    const index = this.toolCallCount++;
    const id = typeof call.id === 'string' && call.id !== '' ? call.id : generateCallId();
    const argumentsText = stringifyArguments(call.function.arguments);
    return [
      { type: 'tool-call-start', index, id, name: call.function.name },
      { type: 'tool-call-delta', index, argumentsDelta: argumentsText },
      { type: 'tool-call-end', index, arguments: argumentsText },
    ];
  }
}

/** Arguments are an object on the wire, but some servers and proxies send JSON text. */
function stringifyArguments(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined || value === null) return '{}';
  return stringifyDeepJson(value);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
