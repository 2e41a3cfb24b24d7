/** The Python client group: a venv in the client cache with the pinned `openai` package, installed by pip with retries. */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { cacheRoot, type InstalledGroup } from './client-cache.js';

const run = promisify(execFile);

function reasonOf(error: unknown): string {
  return String((error as { stderr?: string }).stderr || (error as Error).message)
    .trim()
    .split('\n')
    .slice(-2)
    .join(' ');
}

export async function installPythonGroup(packages: string[], attempts = 3): Promise<InstalledGroup> {
  const prefix = path.join(cacheRoot(), `python--${packages.join('+').replace(/[^A-Za-z0-9.+=-]+/g, '_')}`);
  const marker = path.join(prefix, '.installed');
  if (existsSync(marker)) return { type: 'installed', prefix, fromCache: true, seconds: 0 };
  const started = Date.now();
  let reason = '';
  for (let attempt = 1; attempt <= attempts; attempt++) {
    try {
      await rm(prefix, { recursive: true, force: true });
      await run('python3', ['-m', 'venv', path.join(prefix, 'venv')], { timeout: 120_000 });
      await run(path.join(prefix, 'venv/bin/pip'), ['install', '--disable-pip-version-check', '--quiet', ...packages], {
        timeout: 600_000,
      });
      await writeFile(marker, `${new Date().toISOString()}\n`);
      return { type: 'installed', prefix, fromCache: false, seconds: Math.round((Date.now() - started) / 1000) };
    } catch (error) {
      reason = reasonOf(error);
      if (attempt < attempts) await new Promise((resolve) => setTimeout(resolve, 5_000 * attempt));
    }
  }
  return {
    type: 'unavailable',
    reason: `pip install ${packages.join(' ')} failed ${attempts} times (no Python package index reachable?): ${reason}`,
  };
}
