/**
 * Starts the contenders as child processes (fake upstream, bare proxy, the gateway through its real
 * entry `src/server.ts` and a config file), so that none shares an event loop with the load generator.
 */
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { openSync, closeSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { readCpuMs, readRssKb } from './process-stats.js';
import type { ServerProcessKind } from './server-process.js';

export const repositoryRoot = fileURLToPath(new URL('..', import.meta.url));

export type ChildServer = {
  url: string;
  pid: number;
  rssKb(): number;
  cpuMs(): number;
  /** SIGTERM, then SIGKILL after a grace period; resolves once the process has exited. */
  stop(): Promise<void>;
};

function stopperOf(child: ChildProcess): ChildServer['stop'] {
  return async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(timer);
  };
}

function childServer(child: ChildProcess, url: string): ChildServer {
  const pid = child.pid as number;
  return { url, pid, rssKb: () => readRssKb(pid), cpuMs: () => readCpuMs(pid), stop: stopperOf(child) };
}

/** `argument`: the bare proxy's upstream URL, or the fault upstream's seed. */
export async function spawnServerProcess(kind: ServerProcessKind, argument?: string): Promise<ChildServer> {
  const entry = fileURLToPath(new URL('./server-process.ts', import.meta.url));
  const child = fork(entry, argument ? [kind, argument] : [kind], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (message) => resolve((message as { port: number }).port));
    child.once('exit', (code) => reject(new Error(`${kind} exited with code ${code} before listening`)));
  });
  return childServer(child, `http://127.0.0.1:${port}`);
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Resolves once `/health` answers 200; throws when the child exits first or `timeoutMs` passes. */
export async function waitForHealth(url: string, child: ChildProcess, logPath: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the gateway exited with code ${child.exitCode}; see ${logPath}`);
    try {
      const response = await request(`${url}/health`);
      await response.body.dump();
      if (response.statusCode === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the gateway did not answer /health within ${timeoutMs / 1000} s; see ${logPath}`);
}

export type GatewayProcessOptions = {
  configPath: string;
  /** Where the gateway's stdout (its pino log) goes: a file, as in production, not a pipe to us. */
  logPath: string;
  /** Extra Node flags, e.g. `--cpu-prof`. */
  nodeFlags?: string[];
  /** The checkout whose gateway runs (its own src/server.ts and node_modules); this one by default. */
  root?: string;
  /** Variables added to this process's environment for the gateway. */
  environment?: Record<string, string>;
};

export async function spawnGateway(options: GatewayProcessOptions): Promise<ChildServer> {
  const port = await freePort();
  const log = openSync(options.logPath, 'a');
  const child = spawn(
    process.execPath,
    [...(options.nodeFlags ?? []), '--import', 'tsx', 'src/server.ts', '--config', options.configPath, '--port', String(port)],
    { cwd: options.root ?? repositoryRoot, stdio: ['ignore', log, log], env: { ...process.env, ...options.environment } },
  );
  closeSync(log);
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitForHealth(url, child, options.logPath);
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  return childServer(child, url);
}
