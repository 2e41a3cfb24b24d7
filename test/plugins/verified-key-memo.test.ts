/** The memo of verified client keys: bounded (oldest first out), and only keys that passed the check get in. */
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { AccessPolicy } from '../../src/pipeline/access-policy.js';
import { registerClientAuth, type KeyEntry } from '../../src/plugins/client-auth.js';
import { ErrorEnvelopes, registerErrorEnvelope } from '../../src/plugins/error-envelope.js';
import { VerifiedKeyMemo } from '../../src/plugins/verified-key-memo.js';
import { toOpenAiErrorBody } from '../../routes/shared/openai-wire.js';

describe('VerifiedKeyMemo', () => {
  it('holds at most its capacity, the oldest key going first', () => {
    const memo = new VerifiedKeyMemo<string>(2);
    memo.remember('key-one', 'one');
    memo.remember('key-two', 'two');
    memo.remember('key-three', 'three');
    expect(memo.size).toBe(2);
    expect(memo.get('key-one')).toBeUndefined();
    expect(memo.get('key-two')).toBe('two');
    expect(memo.get('key-three')).toBe('three');
  });

  it('keeps the first entry for a key remembered twice', () => {
    const memo = new VerifiedKeyMemo<string>(2);
    memo.remember('key-one', 'one');
    memo.remember('key-one', 'other');
    expect(memo.size).toBe(1);
    expect(memo.get('key-one')).toBe('one');
  });
});

describe('client auth with the memo', () => {
  async function appWith(memo: VerifiedKeyMemo<KeyEntry>) {
    const app = Fastify();
    registerErrorEnvelope(app, new ErrorEnvelopes(toOpenAiErrorBody));
    const keys = ['key-alpha-0123', 'key-beta-0123'].map((key, index) => ({
      key,
      access: new AccessPolicy({ key, name: `team-${index}` }),
    }));
    registerClientAuth(app, keys, { verifiedKeys: memo });
    app.get('/who', async (request) => ({ name: request.gatewayContext?.access?.name }));
    await app.ready();
    return app;
  }

  it('remembers only keys that passed, and answers a remembered key with its own policy', async () => {
    const memo = new VerifiedKeyMemo<KeyEntry>(2);
    const app = await appWith(memo);
    const ask = (key: string) => app.inject({ method: 'GET', url: '/who', headers: { authorization: `Bearer ${key}` } });
    for (const wrong of ['key-gamma-0123', 'key-alpha-012', 'key-alpha-01234', '']) expect((await ask(wrong)).statusCode).toBe(401);
    expect(memo.size).toBe(0);
    expect((await ask('key-beta-0123')).json()).toEqual({ name: 'team-1' });
    expect(memo.size).toBe(1);
    // Served from the memo now: the same policy, and a wrong key beside it is still refused.
    expect((await ask('key-beta-0123')).json()).toEqual({ name: 'team-1' });
    expect((await ask('key-beta-0124')).statusCode).toBe(401);
    expect((await ask('key-alpha-0123')).json()).toEqual({ name: 'team-0' });
    expect(memo.size).toBe(2);
    await app.close();
  });

  it('with a memo of no room, still checks every request', async () => {
    const memo = new VerifiedKeyMemo<KeyEntry>(0);
    const app = await appWith(memo);
    const response = await app.inject({ method: 'GET', url: '/who', headers: { 'x-api-key': 'key-alpha-0123' } });
    expect(response.json()).toEqual({ name: 'team-0' });
    expect(memo.size).toBe(0);
    await app.close();
  });
});
