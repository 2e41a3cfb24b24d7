/** isLimitedRoute: which routes get the limits hook, chosen once as each route is registered. */
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { RateLimits } from '../../src/plugins/rate-limits.js';
import { isLimitedRoute, registerRateLimits } from '../../src/plugins/rate-limits-hook.js';
import { silentLogger } from '../../src/core/logger.js';
import { createInProcessState } from '../../src/state/in-process-state.js';

describe('isLimitedRoute', () => {
  it('limits POSTs to the generating routes, on /v1 and /{provider}/v1', () => {
    expect(isLimitedRoute('POST', '/v1/chat/completions')).toBe(true);
    expect(isLimitedRoute('POST', '/:provider/v1/messages')).toBe(true);
    expect(isLimitedRoute('POST', '/v1/responses')).toBe(true);
    expect(isLimitedRoute('POST', '/v1/embeddings')).toBe(true);
    expect(isLimitedRoute(['GET', 'POST'], '/v1/embeddings')).toBe(true);
  });

  it('leaves other methods and routes alone', () => {
    expect(isLimitedRoute('GET', '/v1/chat/completions')).toBe(false);
    expect(isLimitedRoute(['GET', 'HEAD'], '/v1/responses')).toBe(false);
    expect(isLimitedRoute('POST', '/v1/responses/:id/cancel')).toBe(false);
    expect(isLimitedRoute('POST', '/v1/tool-calls/parse')).toBe(false);
  });
});

describe('registerRateLimits', () => {
  it('counts a limited route’s POSTs only, keeping the route’s own preHandler', async () => {
    const app = Fastify();
    const limits = new RateLimits({ requestsPerMinute: 2 }, new Map(), { state: createInProcessState(), log: silentLogger });
    registerRateLimits(app, limits);
    const seen: string[] = [];
    app.route({
      method: ['GET', 'POST'],
      url: '/v1/embeddings',
      preHandler: (request, _reply, done) => {
        seen.push(request.method);
        done();
      },
      handler: async () => ({ ok: true }),
    });
    app.get('/v1/models', async () => ({ ok: true }));
    const first = await app.inject({ method: 'POST', url: '/v1/embeddings', payload: {} });
    expect(first.headers['x-ratelimit-remaining-requests']).toBe('1');
    expect((await app.inject({ method: 'GET', url: '/v1/embeddings' })).headers['x-ratelimit-remaining-requests']).toBeUndefined();
    expect((await app.inject({ method: 'GET', url: '/v1/models' })).headers['x-ratelimit-limit-requests']).toBeUndefined();
    expect((await app.inject({ method: 'POST', url: '/v1/embeddings', payload: {} })).headers['x-ratelimit-remaining-requests']).toBe('0');
    expect((await app.inject({ method: 'POST', url: '/v1/embeddings', payload: {} })).statusCode).toBe(429);
    expect(seen).toEqual(['POST', 'GET', 'POST']);
    await app.close();
  });
});
