/**
 * The Responses WebSocket mode under the hardening that HTTP requests get (issue 10): frames nested
 * too deep are refused like bodies, a connection's chaining store is bounded in bytes, a quiet
 * turn is kept alive with WebSocket pings, and a shutdown ends a live turn with response.failed and
 * closes idle connections as a restart.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAiUpstream, type FakeOpenAiUpstream } from '../../helpers/fake-openai-upstream.js';
import { ResponsesSocketClient, type SocketEvent } from '../../helpers/responses-socket-client.js';
import { startGateway, testProvider, type StartedGateway } from '../../helpers/start-gateway.js';

let upstream: FakeOpenAiUpstream;
/** Default limits (frames of up to 32 MB) and one with small bodies, for the store's byte bound. */
let gateway: StartedGateway;
let smallBodiesGateway: StartedGateway;
let socketUrl: string;
let smallBodiesSocketUrl: string;
const bodyLimitBytes = 64 * 1024;

beforeAll(async () => {
  upstream = await startFakeOpenAiUpstream();
  const providers = {
    native: testProvider('openai-compatible', `${upstream.url}/v1`, { toolCalling: 'native' }),
    prompted: testProvider('openai-compatible', `${upstream.url}/v1`, { toolCalling: 'prompted' }),
  };
  gateway = await startGateway({ server: { streamKeepAliveMs: 100 }, providers });
  smallBodiesGateway = await startGateway({ server: { bodyLimitBytes }, providers });
  socketUrl = `${gateway.baseUrl.replace(/^http/, 'ws')}/v1/responses`;
  smallBodiesSocketUrl = `${smallBodiesGateway.baseUrl.replace(/^http/, 'ws')}/v1/responses`;
});

afterAll(async () => {
  await gateway?.close();
  await smallBodiesGateway?.close();
  await upstream?.close();
});

const user = (text: string) => ({ type: 'message', role: 'user', content: [{ type: 'input_text', text }] });
const lastEvent = (events: SocketEvent[]) => events.at(-1) as SocketEvent & { response: { id: string; status: string } };
const depth = 100_000;
const deepObject = '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);

/** Runs `use` on a new connection to `url`, closing it and forgetting the upstream's requests after. */
async function withSocket(url: string, use: (client: ResponsesSocketClient) => Promise<void>): Promise<void> {
  const client = await ResponsesSocketClient.connect(url);
  try {
    await use(client);
  } finally {
    upstream.requests.length = 0;
    await client.close();
  }
}

/** A response.create frame as text, with `field` (JSON text) among its members. */
function frameWith(model: string, field: string): string {
  return `{"type":"response.create","model":"${model}","input":"hi",${field}}`;
}

describe.each(['native/m', 'prompted/Qwen/Qwen3-8B'])('a frame nested 100,000 deep, to %s', (model) => {
  it.each([
    ['tools[0].parameters', `"tools":[{"type":"function","name":"f","parameters":${deepObject}}]`],
    ['text.format.schema', `"text":{"format":{"type":"json_schema","name":"x","schema":${deepObject}}}`],
    ['metadata', `"metadata":${deepObject}`],
  ])('in %s is a 400 json_too_deep naming where, and the connection stays usable', async (where, field) => {
    await withSocket(socketUrl, async (client) => {
      client.send(frameWith(model, field));
      const refused = lastEvent(await client.nextTurn());
      expect(refused).toMatchObject({ type: 'error', status: 400, error: { code: 'json_too_deep', type: 'invalid_request_error' } });
      expect((refused.error as { param: string }).param.startsWith(where)).toBe(true);
      expect(upstream.requests).toHaveLength(0);
      upstream.enqueue({ type: 'chat', content: 'Still here.' });
      client.send({ type: 'response.create', model, input: [user('Are you there?')] });
      expect(lastEvent(await client.nextTurn()).response.status).toBe('completed');
    });
  });
});

describe("a connection's own store (chaining with store: false)", () => {
  it('keeps no more than one request body may hold: the oldest response goes first', async () => {
    await withSocket(smallBodiesSocketUrl, async (client) => {
      const large = 'x'.repeat(bodyLimitBytes * 0.6);
      const turn = async (frame: Record<string, unknown>) => {
        client.send({ type: 'response.create', model: 'native/m', store: false, ...frame });
        return lastEvent(await client.nextTurn());
      };
      upstream.enqueue({ type: 'chat', content: 'one' }, { type: 'chat', content: 'two' }, { type: 'chat', content: 'three' });
      const first = await turn({ input: [user(large)] });
      const second = await turn({ input: [user(large)] });
      expect([first.response.status, second.response.status]).toEqual(['completed', 'completed']);
      // Both would fit in entries (8); together they are past the connection's byte budget.
      expect(await turn({ previous_response_id: first.response.id, input: [user('and?')] })).toMatchObject({
        type: 'error',
        status: 404,
        error: { code: 'previous_response_not_found' },
      });
      expect((await turn({ previous_response_id: second.response.id, input: [user('and?')] })).response.status).toBe('completed');
    });
  });
});

describe('a quiet turn', () => {
  it('gets WebSocket pings while the upstream is silent, and the same events as ever', async () => {
    await withSocket(socketUrl, async (client) => {
      // Each upstream frame is followed by a silence several times the keep-alive interval.
      upstream.enqueue({ type: 'chat', content: ['Hel', 'lo', ' there'], chunkDelayMs: 400 });
      client.send({ type: 'response.create', model: 'native/m', input: [user('hi')] });
      const events = await client.nextTurn();
      expect(client.pings).toBeGreaterThan(0);
      expect(lastEvent(events).type).toBe('response.completed');
      const deltas = events.filter((event) => event.type === 'response.output_text.delta').map((event) => event.delta);
      expect(deltas.join('')).toBe('Hello there');
    });
  });
});

describe('a connection open past server.webSocketMaxConnectionMs', () => {
  let limitedGateway: StartedGateway;
  let limitedSocketUrl: string;
  const maxConnectionMs = 400;

  beforeAll(async () => {
    const providers = { native: testProvider('openai-compatible', `${upstream.url}/v1`, { toolCalling: 'native' }) };
    limitedGateway = await startGateway({ server: { webSocketMaxConnectionMs: maxConnectionMs }, providers });
    limitedSocketUrl = `${limitedGateway.baseUrl.replace(/^http/, 'ws')}/v1/responses`;
  });
  afterAll(async () => limitedGateway?.close());

  it("is closed when idle, after OpenAI's websocket_connection_limit_reached error event", async () => {
    const client = await ResponsesSocketClient.connect(limitedSocketUrl);
    const closed = await client.closed;
    expect(closed).toEqual({ code: 1000, reason: 'connection limit reached' });
    expect(client.pending()).toMatchObject([
      { type: 'error', status: 400, error: { code: 'websocket_connection_limit_reached', type: 'invalid_request_error' } },
    ]);
  });

  it('lets a turn running at the limit finish, then closes', async () => {
    const client = await ResponsesSocketClient.connect(limitedSocketUrl);
    try {
      // The turn outlasts the limit: the upstream's chunks come 300 ms apart.
      upstream.enqueue({ type: 'chat', content: ['One', ' two', ' three'], chunkDelayMs: 300 });
      client.send({ type: 'response.create', model: 'native/m', input: [user('Count.')] });
      const events = await client.nextTurn();
      expect(lastEvent(events).type).toBe('response.completed');
      const deltas = events.filter((event) => event.type === 'response.output_text.delta').map((event) => event.delta);
      expect(deltas.join('')).toBe('One two three');
      expect((await client.closed).code).toBe(1000);
      expect(client.pending()).toMatchObject([{ type: 'error', error: { code: 'websocket_connection_limit_reached' } }]);
    } finally {
      upstream.requests.length = 0;
    }
  });
});

describe('shutdown during a turn', () => {
  it('ends the live turn with response.failed once the grace period is over, and the gateway closes', async () => {
    const draining = await startGateway(
      { providers: { native: testProvider('openai-compatible', `${upstream.url}/v1`, { toolCalling: 'native' }) } },
      { shutdownGraceMs: 300 },
    );
    await withSocket(`${draining.baseUrl.replace(/^http/, 'ws')}/v1/responses`, async (client) => {
      upstream.enqueue({ type: 'chat', content: 'never finishing', holdAfterChunks: 2 });
      const arrived = upstream.nextRequest();
      client.send({ type: 'response.create', model: 'native/m', input: [user('hi')] });
      await arrived;
      const closed = draining.close();
      const events = await client.nextTurn();
      expect(lastEvent(events).type).toBe('response.failed');
      await closed;
    });
  });

  it('a connection whose app a reload retired starts no new turn: the limit event clients reconnect on, then 1012', async () => {
    const retiring = await startGateway({ providers: { native: testProvider('openai-compatible', `${upstream.url}/v1`) } });
    try {
      const client = await ResponsesSocketClient.connect(`${retiring.baseUrl.replace(/^http/, 'ws')}/v1/responses`);
      retiring.app.retire?.();
      const before = upstream.requests.length;
      client.send({ type: 'response.create', model: 'native/m', input: [user('hi')] });
      expect(await client.closed).toMatchObject({ code: 1012 });
      expect(client.pending()).toMatchObject([{ type: 'error', error: { code: 'websocket_connection_limit_reached' } }]);
      expect(upstream.requests.length).toBe(before);
    } finally {
      await retiring.close();
    }
  });

  it('closes an idle connection with 1012 (Service Restart), which tells the client to connect again', async () => {
    const closing = await startGateway({ providers: { native: testProvider('openai-compatible', `${upstream.url}/v1`) } });
    const client = await ResponsesSocketClient.connect(`${closing.baseUrl.replace(/^http/, 'ws')}/v1/responses`);
    await closing.close();
    expect((await client.closed).code).toBe(1012);
  });
});
