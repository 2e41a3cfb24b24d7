/**
 * Refusals made before any route handler runs (no key, a body that is not JSON, too large or nested
 * too deep, a body the schema refuses, an unknown route) carry the operational headers the other error
 * replies carry: `x-request-id`, and `x-interlingua-attempts: 0` (no upstream was asked), on the
 * OpenAI routes and the Messages routes alike, each in its API's envelope.
 */
import { describe, expect, it } from 'vitest';
import { testProvider } from '../../helpers/start-gateway.js';
import { fakeUpstream, gatewayFor } from './resilience-kit.js';

const key = 'sk-team-0123456789';
const auth = { authorization: `Bearer ${key}` };

async function gateway() {
  const upstream = await fakeUpstream();
  return gatewayFor({
    server: { apiKeys: [{ key, name: 'team' }], bodyLimitBytes: 4096 },
    providers: { a: testProvider('openai-compatible', `${upstream.url}/v1`) },
  });
}

type Refusal = { title: string; path: string; status: number; headers: Record<string, string>; body?: string; method?: string };

const chatBody = JSON.stringify({ model: 'a/m', messages: [{ role: 'user', content: 'hi' }] });
const json = { 'content-type': 'application/json' };

const refusals: Refusal[] = [
  { title: 'no key', path: '/v1/chat/completions', status: 401, headers: json, body: chatBody },
  { title: 'a wrong key', path: '/v1/messages', status: 401, headers: { ...json, 'x-api-key': 'sk-wrong-0123456789' }, body: chatBody },
  { title: 'malformed JSON', path: '/v1/chat/completions', status: 400, headers: { ...json, ...auth }, body: '{"model":' },
  { title: 'a body the schema refuses', path: '/v1/chat/completions', status: 400, headers: { ...json, ...auth }, body: '{"model":"a/m"}' },
  {
    title: 'a body the schema refuses (Messages)',
    path: '/v1/messages',
    status: 400,
    headers: { ...json, ...auth },
    body: '{"model":"a/m"}',
  },
  {
    title: 'a body over the limit',
    path: '/v1/chat/completions',
    status: 413,
    headers: { ...json, ...auth },
    body: `{"x":"${'a'.repeat(5000)}"}`,
  },
  // Any Content-Type is read as JSON (src/plugins/json-body-parser.ts): text that is not JSON is a 400, never a 415.
  {
    title: 'a text body that is not JSON',
    path: '/v1/chat/completions',
    status: 400,
    headers: { 'content-type': 'text/plain', ...auth },
    body: 'hi',
  },
  {
    title: 'a body nested too deep',
    path: '/v1/chat/completions',
    status: 400,
    headers: { ...json, ...auth },
    body: `${'['.repeat(200)}${']'.repeat(200)}`,
  },
  { title: 'an unknown route', path: '/v1/nothing-here', status: 404, headers: auth, method: 'GET' },
  { title: 'an unknown route under Messages', path: '/v1/messages/nothing', status: 404, headers: auth, method: 'GET' },
];

describe('refusals before the handler', () => {
  it.each(refusals)('$title: $status with x-request-id and x-interlingua-attempts: 0', async (refusal) => {
    const started = await gateway();
    const init: RequestInit = { method: refusal.method ?? 'POST', headers: { ...refusal.headers, 'x-request-id': 'req-refused-1' } };
    if (refusal.body !== undefined) init.body = refusal.body;
    const response = await fetch(`${started.baseUrl}${refusal.path}`, init);
    const text = await response.text();
    expect(response.status).toBe(refusal.status);
    const envelope = JSON.parse(text) as Record<string, unknown>;
    if (refusal.path.startsWith('/v1/messages')) expect(envelope).toMatchObject({ type: 'error', error: { type: expect.any(String) } });
    else expect(envelope).toMatchObject({ error: { message: expect.any(String), type: expect.any(String) } });
    expect(response.headers.get('x-request-id')).toBe('req-refused-1');
    expect(response.headers.get('x-interlingua-attempts')).toBe('0');
    expect(response.headers.get('x-interlingua-model')).toBeNull();
  });
});
