/**
 * Child-process entry for the bench's own servers, so that they never share an event loop with the
 * load generator: `server-process.ts fake-upstream` or `server-process.ts bare-proxy <upstream-url>`.
 * Reports `{ port }` over IPC once listening; exits when the parent goes away.
 */
import { startBareProxy } from './bare-proxy.js';
import { startFakeUpstream } from './fake-upstream.js';
import type { RunningServer } from './running-server.js';

export type ServerProcessKind = 'fake-upstream' | 'bare-proxy';

async function start(kind: string, upstreamUrl: string | undefined): Promise<RunningServer> {
  if (kind === 'fake-upstream') return startFakeUpstream();
  if (kind === 'bare-proxy' && upstreamUrl) return startBareProxy(upstreamUrl);
  throw new Error(`usage: server-process.ts fake-upstream | bare-proxy <upstream-url> (got ${kind})`);
}

const [kind = '', upstreamUrl] = process.argv.slice(2);
const server = await start(kind, upstreamUrl);
process.send?.({ port: server.port });
const stop = () => void server.close().finally(() => process.exit(0));
process.on('disconnect', stop);
process.on('SIGTERM', stop);
