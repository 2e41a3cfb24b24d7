/** Raw HTTP helpers for tests that check the wire itself: JSON posts and SSE bodies split into `data:` frames. */

export type RawResponse = { status: number; headers: Headers; text: string };

export async function postJson(url: string, body: unknown, headers: Record<string, string> = {}): Promise<RawResponse> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

/**
 * The `data:` payloads of an SSE body, in order. Throws on anything but `data:` lines, so a stray
 * `event:` line or a frame without its blank-line terminator fails the test that reads it.
 */
export function sseFrames(text: string): string[] {
  if (text !== '' && !text.endsWith('\n\n')) throw new Error(`SSE body does not end with a blank line: ${JSON.stringify(text.slice(-80))}`);
  return text
    .split('\n\n')
    .slice(0, -1)
    .map((block) => {
      if (!block.startsWith('data: ') || block.includes('\n')) throw new Error(`not a single data line: ${JSON.stringify(block)}`);
      return block.slice('data: '.length);
    });
}

/** The JSON frames before a final `[DONE]` (which must be there). */
export function sseChunks(text: string): Record<string, unknown>[] {
  const frames = sseFrames(text);
  if (frames.at(-1) !== '[DONE]') throw new Error(`stream did not end with [DONE]: ${JSON.stringify(frames.at(-1))}`);
  return frames.slice(0, -1).map((frame) => JSON.parse(frame) as Record<string, unknown>);
}
