/**
 * Client authentication: when `server.apiKeys` is set, every request except /health, /ready and the
 * open pages needs one of them as `Authorization: Bearer …` (or `x-api-key`, as Anthropic clients send
 * it), compared in constant time. The matching key's policy (its name, never the key itself) is kept on
 * the request.
 */
import { hash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { gatewayError } from '../core/gateway-error.js';
import type { AccessPolicy } from '../pipeline/access-policy.js';
import { requestContextOf } from '../pipeline/request-context.js';
import { sendError } from './error-envelope.js';
import { VerifiedKeyMemo } from './verified-key-memo.js';

/**
 * Hashing first gives equal-length buffers, so neither content nor length leaks through timing.
 * The one-shot `crypto.hash` (Node 20.12+) skips the Hash object `createHash` builds on every request.
 */
function digest(value: string): Buffer {
  return hash('sha256', value, 'buffer') as unknown as Buffer;
}

/** Finds the presented key among `keys`, comparing against every one (no early exit), so timing doesn't reveal which matched. */
export function createKeyFinder<Key extends { key: string }>(keys: readonly Key[]): (candidate: string | undefined) => Key | undefined {
  const digests = keys.map((entry) => digest(entry.key));
  return (candidate) => {
    if (candidate === undefined) return undefined;
    const candidateDigest = digest(candidate);
    let matched: Key | undefined;
    for (const [index, keyDigest] of digests.entries()) if (timingSafeEqual(candidateDigest, keyDigest)) matched = keys[index];
    return matched;
  };
}

export function createKeyChecker(keys: string[]): (candidate: string | undefined) => boolean {
  const find = createKeyFinder(keys.map((key) => ({ key })));
  return (candidate) => find(candidate) !== undefined;
}

/** The key a request presents: its bearer token, else its `x-api-key`. */
export function presentedKey(headers: Record<string, string | string[] | undefined>): string | undefined {
  const authorization = headers.authorization;
  if (typeof authorization === 'string') {
    const match = /^Bearer\s+(.+)$/i.exec(authorization.trim());
    if (match) return match[1];
  }
  const apiKey = headers['x-api-key'];
  return typeof apiKey === 'string' ? apiKey : undefined;
}

/** Paths that never need a key: liveness and readiness probes, and pages that hold no data (the inspector's). */
const alwaysOpen = ['/health', '/ready', '/'];

/** A configured key and what it may do. */
export type KeyEntry = { key: string; access: AccessPolicy };

export type ClientAuthOptions = {
  /** Paths besides the probes that need no key (the inspector's pages). */
  extraOpenPaths?: readonly string[];
  /** Where verified keys are remembered (app.ts builds it); none: every request is digested. */
  verifiedKeys?: VerifiedKeyMemo<KeyEntry>;
  /** The metrics token's check (`metrics.token`): on GET /metrics it passes without a key; elsewhere it is no key. */
  isScrapeToken?: (candidate: string | undefined) => boolean;
};

/** The one path the metrics token opens. */
export const metricsPath = '/metrics';

function pathOf(url: string): string {
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}

export function registerClientAuth(app: FastifyInstance, keys: readonly KeyEntry[], options: ClientAuthOptions = {}): void {
  if (keys.length === 0) return;
  const find = createKeyFinder(keys);
  const verifiedKeys = options.verifiedKeys ?? new VerifiedKeyMemo<KeyEntry>(0);
  const openPaths = new Set([...alwaysOpen, ...(options.extraOpenPaths ?? [])]);
  const { isScrapeToken } = options;
  // A callback hook, not an async one: an admitted request makes no promise and takes no microtask hop here.
  app.addHook('onRequest', (request, reply, done) => {
    const path = pathOf(request.url);
    if (openPaths.has(path)) return done();
    const presented = presentedKey(request.headers);
    // The route checks the token again (it must without keys too): here it only passes the key check.
    if (isScrapeToken && path === metricsPath && isScrapeToken(presented)) return done();
    let entry = presented === undefined ? undefined : verifiedKeys.get(presented);
    if (entry === undefined) {
      entry = find(presented);
      if (entry && presented !== undefined) verifiedKeys.remember(presented, entry);
    }
    if (entry) {
      requestContextOf(request).access = entry.access;
      return done();
    }
    void reply.header('www-authenticate', 'Bearer');
    const error = gatewayError('invalid_api_key', { message: 'Missing or invalid API key.' });
    // Answered here: a callback hook that sends does not call done.
    sendError(request, reply, error);
  });
}
