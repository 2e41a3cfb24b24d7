/**
 * Opt-in CORS (`server.cors`), so that a page on an allowed origin can call the gateway from the browser.
 * Off by default: the gateway holds the providers' keys and is usually reached by tools on the same machine
 * or behind a proxy; letting any web page a user visits send requests to it (and read the replies) is a
 * choice for the operator, who names the origins. Unconfigured, nothing is registered: no hook, no cost
 * per request.
 *
 * A preflight (`OPTIONS` with `Access-Control-Request-Method`) is answered here with a 204, before client
 * keys are checked (browsers send no credentials on a preflight). Every other request from an allowed origin
 * gets `Access-Control-Allow-Origin` and the gateway's own headers exposed to scripts. The headers are set on
 * the raw response, so that streams, which write their head themselves, carry them too.
 */
import type { FastifyInstance } from 'fastify';
import type { CorsSettings } from '../config/config-types.js';

/** What the SDKs send: OpenAI's and Anthropic's auth, versions and betas, and the gateway's own. */
const allowedHeaders = [
  'authorization',
  'content-type',
  'content-encoding',
  'x-api-key',
  'anthropic-version',
  'anthropic-beta',
  'anthropic-dangerous-direct-browser-access',
  'openai-beta',
  'openai-organization',
  'openai-project',
  'idempotency-key',
  'x-stainless-arch',
  'x-stainless-lang',
  'x-stainless-os',
  'x-stainless-package-version',
  'x-stainless-retry-count',
  'x-stainless-runtime',
  'x-stainless-runtime-version',
  'x-stainless-timeout',
  'x-stainless-helper-method',
  'x-request-id',
  'x-session-id',
].join(', ');

/** The headers a script may read: the gateway's (x-interlingua-*), the request id, limits and retry advice. */
const exposedHeaders = [
  'x-request-id',
  'x-interlingua-model',
  'x-interlingua-attempts',
  'x-interlingua-provider',
  'x-interlingua-warnings',
  'x-interlingua-deployment',
  'x-interlingua-cost-usd',
  'x-interlingua-cost-estimated',
  'x-interlingua-budget-usd',
  'x-interlingua-budget-remaining-usd',
  'x-interlingua-budget-reset',
  'x-ratelimit-limit-requests',
  'x-ratelimit-remaining-requests',
  'x-ratelimit-reset-requests',
  'x-ratelimit-limit-tokens',
  'x-ratelimit-remaining-tokens',
  'x-ratelimit-reset-tokens',
  'retry-after',
].join(', ');

const allowedMethods = 'GET, POST, DELETE, OPTIONS';

/** A day: browsers cap it lower themselves (Chromium at 2 hours), and the answer changes only with the config. */
const defaultMaxAgeSeconds = 86_400;

export function registerCors(app: FastifyInstance, settings: CorsSettings): void {
  const anyOrigin = settings.origins.includes('*');
  const origins = new Set(settings.origins);
  const maxAge = String(settings.maxAgeSeconds ?? defaultMaxAgeSeconds);
  app.addHook('onRequest', (request, reply, done) => {
    const origin = request.headers.origin;
    const raw = reply.raw;
    // Replies differ by Origin whenever some origins are refused: caches must keep them apart.
    if (!anyOrigin) raw.setHeader('vary', 'origin');
    if (origin === undefined || !(anyOrigin || origins.has(origin))) return done();
    raw.setHeader('access-control-allow-origin', anyOrigin ? '*' : origin);
    if (request.method === 'OPTIONS' && request.headers['access-control-request-method'] !== undefined) {
      void reply
        .status(204)
        .header('access-control-allow-methods', allowedMethods)
        .header('access-control-allow-headers', allowedHeaders)
        .header('access-control-max-age', maxAge)
        .send();
      return;
    }
    raw.setHeader('access-control-expose-headers', exposedHeaders);
    done();
  });
}
