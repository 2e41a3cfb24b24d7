/**
 * Reads a whole (non-streaming) Messages reply into the same neutral events as its SSE form: the
 * `message` object is replayed as the stream events that would have carried it, through the one reader.
 * Wire formats: https://docs.anthropic.com/en/api/messages (the `message` object) and
 * https://docs.anthropic.com/en/api/messages-streaming (the events).
 */
import { GatewayError, gatewayError, replayEvents, type StreamEvent } from '../../src/core/index.js';
import type { AnthropicStreamReader } from './anthropic-stream-reader.js';
import { mapAnthropicStreamError } from './map-anthropic-stream-error.js';
import { asRecord, parseJsonLoosely, readString, type JsonRecord } from '../../src/http/read-loose-json.js';

function badReply(provider: string, detail: string, upstreamBody?: unknown): GatewayError {
  return gatewayError('upstream_bad_response', { message: `Upstream provider '${provider}' ${detail}`, upstreamBody });
}

/**
 * Each block travels whole in its `content_block_start`, where the reader already takes text, thinking
 * with its signature, redacted thinking's data, and a tool's `input` object (server tools it ignores, as
 * when streamed). Usage rides on `message_start`, the stop reason on `message_delta`.
 */
export function messageAsStreamPayloads(message: JsonRecord): JsonRecord[] {
  const blocks: unknown[] = Array.isArray(message.content) ? message.content : [];
  const payloads: JsonRecord[] = [{ type: 'message_start', message: { ...message, content: [] } }];
  blocks.forEach((block, index) =>
    payloads.push({ type: 'content_block_start', index, content_block: block }, { type: 'content_block_stop', index }),
  );
  payloads.push(
    {
      type: 'message_delta',
      delta: { stop_reason: message.stop_reason, stop_sequence: message.stop_sequence, stop_details: message.stop_details },
    },
    { type: 'message_stop' },
  );
  return payloads;
}

/** Parses the body's text; a 2xx body that is an error envelope, not JSON or not a message is a GatewayError. */
function readMessage(text: string, provider: string): JsonRecord {
  const parsed = parseJsonLoosely(text);
  if (parsed === undefined) throw badReply(provider, 'sent a reply that is not JSON.');
  const payload = asRecord(parsed);
  // Proxies that already sent 200 put Anthropic's error envelope in the body.
  if (readString(payload, 'type') === 'error') throw mapAnthropicStreamError(payload, provider, 'in its reply');
  if (!payload || !Array.isArray(payload.content)) throw badReply(provider, 'sent a reply that is not a message.', parsed);
  return payload;
}

/** The events come out exactly as the streamed reader yields them, each text, thinking and argument run as one delta. */
export function readAnthropicMessage(text: string, reader: AnthropicStreamReader, provider: string): AsyncIterable<StreamEvent> {
  const events = messageAsStreamPayloads(readMessage(text, provider)).flatMap((payload) => reader.pushPayload(payload));
  return replayEvents(events);
}
