/** Reads a whole `generateContent` reply into the same neutral events as its streamed form, through the one reader. */
import { gatewayError, replayEvents, type StreamEvent } from '../../src/core/index.js';
import { parseJsonLoosely } from '../../src/http/read-loose-json.js';
import type { GeminiReplyReader } from './gemini-reply-reader.js';

export function readGeminiReply(text: string, reader: GeminiReplyReader, provider: string): AsyncIterable<StreamEvent> {
  const parsed = parseJsonLoosely(text);
  if (parsed === undefined) {
    throw gatewayError('upstream_bad_response', { message: `Upstream provider '${provider}' sent a reply that is not JSON.` });
  }
  const events = [...reader.push(parsed), ...reader.end()];
  const last = events.at(-1);
  // Nothing reached the client yet: a failed whole reply is still a real HTTP error.
  if (last?.type === 'error') throw last.error;
  return replayEvents(events);
}
