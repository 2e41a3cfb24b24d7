/**
 * Client authentication: when `server.apiKeys` is set, every request except /health and the open
 * pages needs one of them as `Authorization: Bearer …` (or `x-api-key`, as Anthropic clients send
 * it), compared in constant time.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { GatewayError } from '../core/gateway-error.js';
import { sendError } from './error-envelope.js';

/** Hashing first gives equal-length buffers, so neither content nor length leaks through timing. */
function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

export function createKeyChecker(keys: string[]): (candidate: string | undefined) => boolean {
  const digests = keys.map(digest);
  return (candidate) => {
    if (candidate === undefined) return false;
    const candidateDigest = digest(candidate);
    let matched = false;
    // Compare against every key (no early exit) so timing doesn't reveal which one matched.
    for (const keyDigest of digests) matched = timingSafeEqual(candidateDigest, keyDigest) || matched;
    return matched;
  };
}

function presentedKey(headers: Record<string, string | string[] | undefined>): string | undefined {
  const authorization = headers.authorization;
  if (typeof authorization === 'string') {
    const match = /^Bearer\s+(.+)$/i.exec(authorization.trim());
    if (match) return match[1];
  }
  const apiKey = headers['x-api-key'];
  return typeof apiKey === 'string' ? apiKey : undefined;
}

/** Paths that never need a key: readiness probes, and pages that hold no data (the inspector's). */
const alwaysOpen = ['/health', '/'];

export function registerClientAuth(app: FastifyInstance, keys: string[], extraOpenPaths: readonly string[] = []): void {
  if (keys.length === 0) return;
  const check = createKeyChecker(keys);
  const openPaths = new Set([...alwaysOpen, ...extraOpenPaths]);
  app.addHook('onRequest', async (request, reply) => {
    if (openPaths.has(request.url.split('?')[0] ?? '')) return;
    if (check(presentedKey(request.headers))) return;
    void reply.header('www-authenticate', 'Bearer');
    const error = new GatewayError({ status: 401, type: 'authentication_error', code: 'invalid_api_key', message: 'Missing or invalid API key.' });
    return sendError(request, reply, error);
  });
}
