/** The `state` section with its defaults, and a Redis URL the client can connect to. */
import type { ConfigFile } from './config-schema.js';
import { ConfigError } from './config-error.js';
import type { StateSettings } from './config-types.js';

/** One hour, like the in-process store always kept; 8 MiB per stored response in Redis. */
export const defaultState: StateSettings = {
  onRedisError: 'open',
  keyPrefix: 'interlingua:',
  responseTtlSeconds: 3_600,
  maxResponseBytes: 8 * 1024 * 1024,
  connectTimeoutMs: 2_000,
  commandTimeoutMs: 1_000,
  streamLeaseSeconds: 30,
};

/**
 * The schema checks only the scheme. A URL that does not parse (`redis://:pw@host:notaport`) threw out of
 * the app's build, a stack trace at start whose `input` printed the whole URL, password included; it is a
 * config problem, said without the URL.
 */
export function normalizeState(state: ConfigFile['state']): StateSettings {
  if (state?.redis !== undefined && !URL.canParse(state.redis))
    throw new ConfigError(['state.redis: not a URL the Redis client can read (redis://[user:password@]host[:port][/db])']);
  return { ...defaultState, ...state };
}
