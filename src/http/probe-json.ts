/**
 * One short request of server detection (GET or POST, JSON in and out), apart from the adapters' pooled
 * clients: bounded by its own timeout and the caller's signal, and never throwing. `reachable: false`
 * means no HTTP answer at all (refused, reset, timed out), which tells "nobody there" from "not this endpoint".
 */
import type { ProviderConfig } from '../config/config-types.js';
import { version } from '../version.js';
import { parseJsonLoosely } from './read-loose-json.js';

export type ProbeAnswer = { reachable: false } | { reachable: true; status: number; body: unknown };

export type ProbeOptions = {
  headers: Record<string, string>;
  signal: AbortSignal;
  /** Each probe's own bound (default 2 s): detection runs a handful of them, in the background. */
  timeoutMs?: number;
  /** POSTed as JSON when present. */
  json?: unknown;
};

/** A detection probe reads small JSON documents; a larger body is not the one asked for. */
const maximumProbeBytes = 4 * 1024 * 1024;

export async function probeJson(url: string, options: ProbeOptions): Promise<ProbeAnswer> {
  const signal = AbortSignal.any([options.signal, AbortSignal.timeout(options.timeoutMs ?? 2_000)]);
  const post = options.json !== undefined;
  try {
    const response = await fetch(url, {
      method: post ? 'POST' : 'GET',
      headers: post ? { ...options.headers, 'content-type': 'application/json' } : options.headers,
      body: post ? JSON.stringify(options.json) : undefined,
      signal,
      redirect: 'manual',
    });
    const length = Number(response.headers.get('content-length') ?? 0);
    if (length > maximumProbeBytes) {
      await response.body?.cancel();
      return { reachable: true, status: response.status, body: undefined };
    }
    const text = await response.text();
    return { reachable: true, status: response.status, body: text.length > maximumProbeBytes ? undefined : parseJsonLoosely(text) };
  } catch {
    return { reachable: false };
  }
}

/** The body of a 2xx answer, else undefined. */
export function okBody(answer: ProbeAnswer): unknown {
  return answer.reachable && answer.status >= 200 && answer.status < 300 ? answer.body : undefined;
}

/** A probe's headers: the provider's key and configured headers, as its requests carry them. */
export function probeHeaders(config: ProviderConfig): Record<string, string> {
  const headers: Record<string, string> = { accept: 'application/json', 'user-agent': `interlingua/${version}` };
  for (const [name, value] of Object.entries(config.headers)) headers[name.toLowerCase()] = value;
  if (config.apiKey) headers.authorization = `Bearer ${config.apiKey}`;
  return headers;
}
