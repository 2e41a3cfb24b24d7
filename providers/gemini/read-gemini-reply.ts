/** Reads a whole `generateContent` reply into the same neutral events as its streamed form, through the one reader. */
import { GatewayError, replayEvents, type StreamEvent } from '../../src/core/index.js';
import { parseJsonLoosely } from '../../src/http/read-loose-json.js';
import type { GeminiReplyReader } from './gemini-reply-reader.js';

export function readGeminiReply(text: string, reader: GeminiReplyReader, provider: string): AsyncIterable<StreamEvent> {
  const parsed = parseJsonLoosely(text);
  if (parsed === undefined) {
    throw new GatewayError({ status: 502, type: 'upstream_error', code: 'upstream_bad_response', message: `Upstream provider '${provider}' sent a reply that is not JSON.` });
  }
  const events = [...reader.push(parsed), ...reader.end()];
  const last = events.at(-1);
  // Nothing reached the client yet: a failed whole reply is still a real HTTP error.
  if (last?.type === 'error') throw last.error;
  return replayEvents(events);
}
