/**
 * The gateway as a real process (`node --import tsx src/server.ts`, as `npm start` runs it) for the
 * tests of the entry point: start it, wait for /health, read its pino lines, wait for its exit.
 */
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { sleep } from './loopback-server.js';

export const projectRoot = fileURLToPath(new URL('../..', import.meta.url));

/** A port that was free a moment ago (the server needs an explicit one to be reachable by the test). */
export async function freePort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export type StartedProcess = { child: ChildProcess; output: () => string };

/** An environment without the caller's provider keys, so discovery sees only what a test sets. */
function cleanEnvironment(extra: Record<string, string>): NodeJS.ProcessEnv {
  const environment: NodeJS.ProcessEnv = { ...process.env, ...extra };
  for (const key of [
    'OPENAI_API_KEY',
    'ANTHROPIC_API_KEY',
    'OLLAMA_HOST',
    'OPENAI_BASE_URL',
    'ANTHROPIC_BASE_URL',
    'GATEWAY_CONFIG',
    'PORT',
    'HOST',
  ]) {
    if (!(key in extra)) delete environment[key];
  }
  return environment;
}

/** What to run instead of `node --import tsx src/server.ts`; `detached` makes it lead its own process group. */
export type StartCommand = { file: string; detached: boolean };

/** The processes a test file started, so that each is stopped by its own pid (a failed test may leave one running). */
export class GatewayProcesses {
  private readonly started: { child: ChildProcess; detached: boolean }[] = [];

  start(commandLine: string[], environment: Record<string, string> = {}, command?: StartCommand): StartedProcess {
    const options: SpawnOptions = {
      cwd: projectRoot,
      env: cleanEnvironment(environment),
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: command?.detached ?? false,
    };
    const child = command
      ? spawn(command.file, commandLine, options)
      : spawn(process.execPath, ['--import', 'tsx', 'src/server.ts', ...commandLine], options);
    this.started.push({ child, detached: options.detached === true });
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    return { child, output: () => output };
  }

  /** SIGKILL to each child still running, and to a detached child's whole group (what it left behind). */
  killAll(): void {
    for (const { child, detached } of this.started) {
      if (child.pid === undefined) continue;
      if (!detached && (child.exitCode !== null || child.signalCode !== null)) continue;
      try {
        process.kill(detached ? -child.pid : child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }
}

export async function waitForHealth(started: StartedProcess, port: number): Promise<Record<string, unknown>> {
  // Generous: on a loaded machine the TypeScript entry takes many seconds to start.
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (started.child.exitCode !== null) throw new Error(`server exited early (${started.child.exitCode}):\n${started.output()}`);
    try {
      const response = await fetch(`http://127.0.0.1:${port}/health`, { signal: AbortSignal.timeout(1_000) });
      if (response.ok) return (await response.json()) as Record<string, unknown>;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  throw new Error(`server not healthy on port ${port}:\n${started.output()}`);
}

/** The pino JSON lines of a child's output. */
export function logLines(output: string): Record<string, unknown>[] {
  return output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

export function logMessages(output: string): unknown[] {
  return logLines(output).map((line) => line.msg);
}

export async function exitCode(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null) return child.exitCode;
  const [code] = (await once(child, 'exit')) as [number | null];
  return code;
}
