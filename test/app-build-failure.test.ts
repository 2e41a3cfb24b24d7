/**
 * An app whose build fails half-way (here: an agent-format rule naming an unknown format, which only the
 * built app can check) releases what it had started: a failed reload must leave nothing behind.
 */
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { buildApp, createLastingState } from '../src/app.js';
import { ConfigError } from '../src/config/config-error.js';
import { normalizeConfig } from '../src/config/normalize-config.js';
import { compileConfigFileValidator } from '../src/config/validate-config-file.js';
import { startLoopbackServer } from './helpers/loopback-server.js';

const validateConfigFile = compileConfigFileValidator();

/** The process's active handles and requests by kind (timers, sockets, servers). */
function resourceCounts(): Map<string, number> {
  const counts = new Map<string, number>();
  for (const kind of process.getActiveResourcesInfo()) counts.set(kind, (counts.get(kind) ?? 0) + 1);
  return counts;
}

describe('a build that fails half-way', () => {
  it('closes what it started: the process keeps no part of it, and no timer or socket is left', async () => {
    const collector = await startLoopbackServer((_request, response) => {
      response.writeHead(200).end('{}');
    });
    try {
      const config = normalizeConfig(
        validateConfigFile({
          providers: { local: { type: 'openai-compatible', baseUrl: 'http://127.0.0.1:9/v1' } },
          agentFormats: { rules: [{ header: 'x-harness', contains: 'a', format: 'klingon' }] },
          telemetry: { otlpEndpoint: collector.url },
          state: { redis: 'redis://127.0.0.1:9' },
        }),
        { host: '127.0.0.1', port: 0 },
      );
      const lasting = createLastingState();
      const before = resourceCounts();
      await expect(buildApp(config, { logger: pino({ level: 'silent' }), lasting, environment: {} })).rejects.toBeInstanceOf(ConfigError);
      await new Promise((resolve) => setImmediate(resolve));
      expect(lasting.liveGenerationCounts.size).toBe(0);
      const after = resourceCounts();
      for (const [kind, count] of after) expect(count, kind).toBeLessThanOrEqual(before.get(kind) ?? 0);
    } finally {
      await collector.close();
    }
  });
});
