/** The replay upstream itself: cuts as asked (through multi-byte characters too), routes and content types per server kind, refusals that say why. */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  cutIntoWrites,
  listWireFixtures,
  readWireFixture,
  startReplayUpstream,
  wireServers,
  type ReplayUpstream,
} from './replay-upstream.js';

let upstream: ReplayUpstream;

beforeAll(async () => {
  upstream = await startReplayUpstream();
});

afterAll(async () => {
  await upstream.close();
});

async function postTo(path: string, body: unknown): Promise<Response> {
  return fetch(`${upstream.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

describe('cutIntoWrites', () => {
  it('joins back to the same bytes however it cuts, and cuts where asked', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.integer({ min: 1, max: 40 }), (text, size) => {
        const bytes = Buffer.from(text, 'utf8');
        for (const chunking of [{ kind: 'whole' } as const, { kind: 'lines' } as const, { kind: 'bytes', size } as const]) {
          const writes = cutIntoWrites(bytes, chunking);
          expect(Buffer.concat(writes).equals(bytes)).toBe(true);
          if (chunking.kind === 'bytes') expect(writes.every((write) => write.length <= size)).toBe(true);
          if (chunking.kind === 'lines') expect(writes.slice(0, -1).every((write) => write.at(-1) === 0x0a)).toBe(true);
        }
      }),
    );
  });
});

describe('the captures', () => {
  it('are there for every server kind, streamed ones with their terminators', () => {
    for (const server of wireServers) expect(listWireFixtures(server).length).toBeGreaterThan(0);
    const openAiStreams = [...listWireFixtures('openai'), ...listWireFixtures('vllm'), ...listWireFixtures('llama-cpp')].filter(
      (fixture) => fixture.delivery === 'stream',
    );
    for (const fixture of openAiStreams) expect(fixture.text.endsWith('data: [DONE]\n\n')).toBe(true);
  });
});

describe('the replay upstream', () => {
  it('serves a capture byte for byte on its route, with its server kind’s content type, and records the request', async () => {
    const fixture = readWireFixture('gemini', 'text-streamed.sse');
    upstream.replay(fixture, { chunking: { kind: 'bytes', size: 3 } });
    const response = await postTo('/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse', { contents: [] });
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    expect(Buffer.from(await response.arrayBuffer()).equals(fixture.bytes)).toBe(true);
    expect(upstream.requests.at(-1)?.body).toEqual({ contents: [] });
  });

  it('rewrites line ends as CRLF when asked', async () => {
    upstream.replay(readWireFixture('openai', 'refusal-streamed.sse'), { lineEnding: 'crlf' });
    const text = await (await postTo('/v1/chat/completions', { stream: true })).text();
    expect(text.endsWith('data: [DONE]\r\n\r\n')).toBe(true);
    expect(text.replace(/\r\n/g, '')).not.toContain('\n');
  });

  it('answers 599 with the reason for the wrong route, the wrong delivery, or nothing queued', async () => {
    upstream.replay(readWireFixture('ollama', 'chat-streamed.ndjson'));
    const wrongRoute = await postTo('/v1/chat/completions', { stream: true });
    expect(wrongRoute.status).toBe(599);
    expect(await wrongRoute.text()).toContain('is not the route of ollama-chat');

    upstream.replay(readWireFixture('ollama', 'chat-whole.json'));
    const wrongDelivery = await postTo('/api/chat', { stream: true });
    expect(wrongDelivery.status).toBe(599);
    expect(await wrongDelivery.text()).toContain('asked for a stream but ollama/chat-whole.json is a whole reply');

    const nothing = await postTo('/api/chat', { stream: false });
    expect(nothing.status).toBe(599);
    expect(await nothing.text()).toContain('no capture queued');
  });
});
