/** Runs one client process with a time limit, capturing its output; never leaves it running. */
import { spawn } from 'node:child_process';

export type ProcessResult = { exitCode: number | null; stdout: string; stderr: string; timedOut: boolean };

export function runProcess(
  command: string,
  args: string[],
  options: { cwd: string; env: Record<string, string>; timeoutMs: number },
): Promise<ProcessResult> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    // The whole process group: agents start shells of their own.
    const timer = setTimeout(() => {
      timedOut = true;
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    }, options.timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      resolve({ exitCode: null, stdout, stderr: `${stderr}\n${String(error)}`, timedOut });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ exitCode: code, stdout, stderr, timedOut });
    });
  });
}

/** An environment with only what a client needs: no keys, proxies or settings leak in from the caller. */
export function cleanEnvironment(home: string, extra: Record<string, string>): Record<string, string> {
  const debug: Record<string, string> = process.env.DEBUG_MATRIX ? { DEBUG_MATRIX: process.env.DEBUG_MATRIX } : {};
  return { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, LANG: 'C.UTF-8', TERM: 'dumb', NO_COLOR: '1', ...debug, ...extra };
}
