/** Reads an Anthropic SSE stream into neutral events, completing the stream once the reply is whole. */
import type { StreamEvent } from '../../src/core/index.js';
import { readServerSentReplies } from '../../src/http/read-server-sent-replies.js';
import type { UpstreamStream } from '../../src/http/upstream-stream.js';
import type { AnthropicStreamReader } from './anthropic-stream-reader.js';

/** Yields events until exactly one `finish` or `error` (see readServerSentReplies). */
export function readAnthropicStream(stream: UpstreamStream, reader: AnthropicStreamReader): AsyncGenerator<StreamEvent, void, undefined> {
  return readServerSentReplies(stream, reader, (event) => reader.push(event));
}
