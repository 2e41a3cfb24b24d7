/**
 * A WebSocket turn is a generation like an HTTP request: the key's model policy applies to it, it
 * counts against the key's rate limits (a 429 error frame past them), it has its own request span, and
 * it is counted in the request metrics, by its route marked `(websocket)` and the key's name.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startFakeOpenAiUpstream, type FakeOpenAiUpstream } from '../../helpers/fake-openai-upstream.js';
import { metricSamples } from '../../helpers/metric-samples.js';
import { startOtlpReceiver, type OtlpReceiver } from '../../helpers/otlp-receiver.js';
import { ResponsesSocketClient } from '../../helpers/responses-socket-client.js';
import { startGateway, testProvider, type StartedGateway } from '../../helpers/start-gateway.js';

const key = 'sk-team-0123456789';
const auth = { authorization: `Bearer ${key}` };
/** The SERVER span kind in OTLP's JSON. */
const serverKind = 2;

let upstream: FakeOpenAiUpstream;
let receiver: OtlpReceiver;
let gateway: StartedGateway;

beforeAll(async () => {
  [upstream, receiver] = await Promise.all([startFakeOpenAiUpstream(), startOtlpReceiver()]);
  upstream.respondWith(() => ({ type: 'chat', content: 'ok' }));
  gateway = await startGateway({
    server: {
      apiKeys: [
        { key, name: 'team', models: ['local/*'], limits: { requestsPerMinute: 3 } },
        { key: 'sk-ops-0123456789', name: 'ops', admin: true },
      ],
    },
    providers: {
      local: testProvider('openai-compatible', `${upstream.url}/v1`, { toolCalling: 'native' }),
      other: testProvider('openai-compatible', `${upstream.url}/v1`, { toolCalling: 'native' }),
    },
    telemetry: { otlpEndpoint: receiver.url, serviceName: 'interlingua-test' },
  });
});

afterAll(async () => {
  await gateway?.close();
  await Promise.all([upstream?.close(), receiver?.close()]);
});

const frame = (model: string) => ({ type: 'response.create', model, input: 'hi', store: false });

describe('WebSocket turns', () => {
  // The refused model counts as a request, as over HTTP (the limits are checked before the policy).
  it('are under the key’s policy and limits, each with its own span and metrics', async () => {
    const traceId = randomBytes(16).toString('hex');
    const client = await ResponsesSocketClient.connect(`${gateway.baseUrl.replace(/^http/, 'ws')}/v1/responses`, {
      ...auth,
      traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-01`,
    });
    try {
      const before = upstream.chatRequests().length;
      client.send(frame('other/m'));
      expect((await client.nextTurn()).at(-1)).toMatchObject({ type: 'error', status: 403, error: { code: 'model_not_allowed' } });
      expect(upstream.chatRequests().length).toBe(before);
      for (let turn = 0; turn < 2; turn++) {
        client.send(frame('local/m'));
        expect((await client.nextTurn()).at(-1)?.type).toBe('response.completed');
      }
      client.send(frame('local/m'));
      expect((await client.nextTurn()).at(-1)).toMatchObject({ type: 'error', status: 429, error: { type: 'rate_limit_error' } });
    } finally {
      await client.close();
    }

    const metrics = metricSamples(
      await (await fetch(`${gateway.baseUrl}/metrics`, { headers: { authorization: 'Bearer sk-ops-0123456789' } })).text(),
    );
    const route = '/v1/responses (websocket)';
    expect(metrics.get(`interlingua_requests_total{route="${route}",provider="local",model="m",status="200",key="team"}`)).toBe(2);
    expect(metrics.get(`interlingua_requests_total{route="${route}",provider="",model="",status="429",key="team"}`)).toBe(1);

    const spans = await vi.waitFor(
      async () => {
        await gateway.app.tracing?.flush();
        const found = receiver.spans.filter((span) => span.kind === serverKind && span.traceId === traceId);
        if (found.length < 4) throw new Error('not exported yet');
        return found;
      },
      { timeout: 5_000, interval: 20 },
    );
    expect(spans.map((span) => span.attributes['http.response.status_code']).sort()).toEqual([200, 200, 403, 429]);
  });
});
