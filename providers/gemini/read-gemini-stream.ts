/** Reads a `streamGenerateContent?alt=sse` stream into neutral events. */
import type { StreamEvent } from '../../src/core/index.js';
import { parseJsonLoosely } from '../../src/http/read-loose-json.js';
import { readServerSentReplies } from '../../src/http/read-server-sent-replies.js';
import type { UpstreamStream } from '../../src/http/upstream-stream.js';
import type { GeminiReplyReader } from './gemini-reply-reader.js';

/**
 * Yields events until exactly one `finish` or `error` (see readServerSentReplies). Gemini's last event
 * carries the finish reason but no end marker, so the reply is finished when the body ends.
 */
export function readGeminiStream(stream: UpstreamStream, reader: GeminiReplyReader): AsyncGenerator<StreamEvent, void, undefined> {
  return readServerSentReplies(stream, reader, (event) => reader.push(parseJsonLoosely(event.data)));
}
