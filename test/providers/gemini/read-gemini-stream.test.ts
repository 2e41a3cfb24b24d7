/** The streamed reply gives the same events however its bytes are split into chunks (property test). */
import { Readable } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { StreamEvent } from '../../../src/core/index.js';
import { GeminiReplyReader } from '../../../providers/gemini/gemini-reply-reader.js';
import { readGeminiStream } from '../../../providers/gemini/read-gemini-stream.js';
import { UpstreamStream } from '../../../src/http/upstream-stream.js';
import { renderGeminiChunks } from '../../helpers/fake-gemini-upstream.js';
import { splitAt } from '../../tool-formats/helpers/chunking-invariance.js';
import { collectEvents } from './gemini-test-kit.js';

const wire = renderGeminiChunks(
  {
    type: 'generate',
    chunks: [
      [{ text: 'Thinking about “Paris” ☀', thought: true, thoughtSignature: 'dGhvdWdodA==' }],
      [{ text: 'Here: ' }],
      [{ text: ' ' }],
      [
        {
          functionCall: { id: 'fc-1', name: 'get_weather', args: { city: 'Paris', note: 'data: not an event\r\n\r\n' } },
          thoughtSignature: 'c2ln',
        },
      ],
    ],
    usage: { promptTokenCount: 3, candidatesTokenCount: 4 },
  },
  'gemini-2.5-flash',
  'response-1',
)
  .map((chunk) => `data: ${JSON.stringify(chunk)}\r\n\r\n`)
  .join('');
const bytes = Buffer.from(wire, 'utf8');

async function eventsFor(pieces: Buffer[]): Promise<StreamEvent[]> {
  const reader = new GeminiReplyReader({ provider: 'google', model: 'gemini-2.5-flash', warnings: [] });
  return collectEvents(
    readGeminiStream(
      new UpstreamStream(Readable.from(pieces), { provider: 'google', maxEventBytes: 1 << 20, cancellation: undefined }),
      reader,
    ),
  );
}

/** Splits the bytes anywhere, inside a UTF-8 character too (latin1 maps each byte to one character). */
function split(cuts: number[]): Buffer[] {
  return splitAt(
    bytes.toString('latin1'),
    cuts.map((cut) => cut % bytes.length),
  ).map((piece) => Buffer.from(piece, 'latin1'));
}

describe('readGeminiStream', () => {
  it('reads thoughts, their signature, whitespace-only text and a whole call, ending in tool_calls', async () => {
    const events = await eventsFor([bytes]);
    expect(events.map((event) => event.type)).toEqual([
      'response-start',
      'reasoning-delta',
      'reasoning-signature',
      'text-delta',
      'text-delta',
      'tool-call-start',
      'tool-call-delta',
      'tool-call-end',
      'finish',
    ]);
    expect(events.filter((event) => event.type === 'text-delta').map((event) => event.delta)).toEqual(['Here: ', ' ']);
    expect(events.at(-1)).toMatchObject({ reason: { unified: 'tool-calls', raw: 'STOP' }, usage: { inputTokens: 3, outputTokens: 4 } });
  });

  it('gives identical events for any chunking of the same bytes', async () => {
    const whole = await eventsFor([bytes]);
    await fc.assert(
      fc.asyncProperty(fc.array(fc.nat(), { maxLength: 30 }), async (cuts) => {
        expect(await eventsFor(split(cuts))).toEqual(whole);
      }),
      { numRuns: 150 },
    );
  });
});
