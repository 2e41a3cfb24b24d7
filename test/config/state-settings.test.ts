/**
 * The `state` section: its defaults, its validation (errors naming the path), and `--check-config`
 * with a Redis configured, which validates without ever connecting to it.
 */
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/config-error.js';
import { normalizeConfig } from '../../src/config/normalize-config.js';
import { defaultState } from '../../src/config/normalize-state.js';
import { compileConfigFileValidator } from '../../src/config/validate-config-file.js';
import { exitCode, GatewayProcesses } from '../helpers/gateway-process.js';

/** The config schema is compiled once for the file (as the loader does once per load). */
const validateConfigFile = compileConfigFileValidator();

function problemsOf(file: unknown): string[] {
  try {
    validateConfigFile(file);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe('state settings', () => {
  it('default to in-process state, one hour of stored responses, limits failing open', () => {
    const config = normalizeConfig(validateConfigFile({ providers: {} }), {});
    expect(config.state).toEqual(defaultState);
    expect(config.state.redis).toBeUndefined();
    expect(config.state).toMatchObject({ onRedisError: 'open', responseTtlSeconds: 3600 });
    const shared = normalizeConfig(
      validateConfigFile({ providers: {}, state: { redis: 'redis://127.0.0.1:6379/0', onRedisError: 'closed' } }),
      {},
    );
    expect(shared.state).toEqual({ ...defaultState, redis: 'redis://127.0.0.1:6379/0', onRedisError: 'closed' });
  });

  it('refuse what is not a Redis URL, an unknown error policy and unknown settings, naming the path', () => {
    expect(problemsOf({ state: { redis: 'http://127.0.0.1:6379' } })).toEqual(['state.redis: must match pattern "^rediss?://"']);
    expect(problemsOf({ state: { onRedisError: 'maybe' } })).toEqual(['state.onRedisError: must be one of open, closed']);
    expect(problemsOf({ state: { redisUrl: 'redis://x' } })).toEqual(['state.redisUrl: is not a known setting']);
    expect(problemsOf({ state: { commandTimeoutMs: 0 } })).toEqual(['state.commandTimeoutMs: must be >= 10']);
  });

  it('refuse a Redis URL that does not parse, without quoting it (its password), rather than crash the start', () => {
    const file = validateConfigFile({ providers: {}, state: { redis: 'redis://:hunter2-secret@127.0.0.1:notaport' } });
    const refusal = (() => {
      try {
        normalizeConfig(file, {});
      } catch (error) {
        return error;
      }
      return undefined;
    })();
    expect(refusal).toBeInstanceOf(ConfigError);
    expect((refusal as ConfigError).problems).toEqual([
      'state.redis: not a URL the Redis client can read (redis://[user:password@]host[:port][/db])',
    ]);
    expect((refusal as ConfigError).message).not.toContain('hunter2-secret');
  });
});

describe('--check-config with a Redis configured', () => {
  const processes = new GatewayProcesses();
  let folder: string | undefined;
  afterAll(async () => {
    processes.killAll();
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  it('validates and exits 0 without connecting to Redis', async () => {
    const connections: net.Socket[] = [];
    const listener = net.createServer((connection) => connections.push(connection));
    listener.listen(0, '127.0.0.1');
    await once(listener, 'listening');
    const { port } = listener.address() as net.AddressInfo;
    folder = await mkdtemp(join(tmpdir(), 'interlingua-check-'));
    const file = join(folder, 'gateway.yaml');
    await writeFile(file, `providers: {}\nstate:\n  redis: redis://127.0.0.1:${port}/0\n`);
    const started = processes.start(['--check-config', file]);
    expect(await exitCode(started.child)).toBe(0);
    expect(started.output()).toContain('is valid');
    expect(connections).toHaveLength(0);
    listener.close();
  });
});
