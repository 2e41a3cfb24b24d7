/**
 * Child-process entry for the bench's own servers, so that they never share an event loop with the
 * load generator: `server-process.ts fake-upstream`, `server-process.ts bare-proxy <upstream-url>`, `server-process.ts fastify-floor <upstream-url>`, `server-process.ts translating-floor <upstream-url>` or
 * `server-process.ts fault-upstream <seed>` (the soak's) or `server-process.ts otlp-sink` (the traced cost row's).
 * Reports `{ port }` over IPC once listening; exits when the parent goes away.
 */
import { startBareProxy } from './bare-proxy.js';
import { startFakeUpstream } from './fake-upstream.js';
import { startFastifyFloor } from './fastify-floor.js';
import { startOtlpSink } from './otlp-sink.js';
import type { RunningServer } from './running-server.js';
import { startFaultUpstream } from './soak/fault-upstream.js';
import { startTranslatingFloor } from './translating-floor.js';

export type ServerProcessKind = 'fake-upstream' | 'bare-proxy' | 'fastify-floor' | 'translating-floor' | 'fault-upstream' | 'otlp-sink';

async function start(kind: string, argument: string | undefined): Promise<RunningServer> {
  if (kind === 'fake-upstream') return startFakeUpstream();
  if (kind === 'bare-proxy' && argument) return startBareProxy(argument);
  if (kind === 'fastify-floor' && argument) return startFastifyFloor(argument);
  if (kind === 'translating-floor' && argument) return startTranslatingFloor(argument);
  if (kind === 'fault-upstream' && argument) return startFaultUpstream(Number(argument));
  if (kind === 'otlp-sink') return startOtlpSink();
  throw new Error(
    `usage: server-process.ts fake-upstream | bare-proxy <upstream-url> | fastify-floor <upstream-url> | translating-floor <upstream-url> | fault-upstream <seed> | otlp-sink (got ${kind})`,
  );
}

const [kind = '', argument] = process.argv.slice(2);
const server = await start(kind, argument);
process.send?.({ port: server.port });
const stop = () => void server.close().finally(() => process.exit(0));
process.on('disconnect', stop);
process.on('SIGTERM', stop);
