/**
 * Installs the pinned client packages of the matrix into a cache outside the repository
 * (`${XDG_CACHE_HOME:-~/.cache}/interlingua-clients`), one prefix per group, reused across runs.
 * Installs are retried; a group that cannot be installed is reported, never half-used.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export type ClientGroup = { name: string; packages: string[] };

export type InstalledGroup =
  { type: 'installed'; prefix: string; fromCache: boolean; seconds: number } | { type: 'unavailable'; reason: string };

export function cacheRoot(): string {
  const base = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return path.join(base, 'interlingua-clients');
}

/** Asks the registry about one pinned package: an answer means installs can work. */
export async function registryReachable(probe: string): Promise<{ ok: true } | { ok: false; reason: string }> {
  try {
    await run('npm', ['view', probe, 'version'], { timeout: 60_000 });
    return { ok: true };
  } catch (error) {
    const detail = String((error as { stderr?: string }).stderr || (error as Error).message)
      .trim()
      .split('\n')
      .slice(0, 3)
      .join(' ');
    return { ok: false, reason: `npm view ${probe} failed: ${detail}` };
  }
}

async function sleep(ms: number): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, ms));
}

/** The group's own prefix, named after its exact pins, so a version change installs afresh. */
export function prefixOf(group: ClientGroup): string {
  const slug = group.packages.join('+').replace(/[^A-Za-z0-9.+-]+/g, '_');
  return path.join(cacheRoot(), `${group.name}--${slug}`);
}

export async function installGroup(group: ClientGroup, attempts = 3): Promise<InstalledGroup> {
  const prefix = prefixOf(group);
  const marker = path.join(prefix, '.installed');
  if (existsSync(marker)) return { type: 'installed', prefix, fromCache: true, seconds: 0 };
  const started = Date.now();
  let lastError = '';
  for (let attempt = 1; attempt <= attempts; attempt++) {
    await rm(prefix, { recursive: true, force: true });
    await mkdir(prefix, { recursive: true });
    // A package.json of its own, so npm installs here and never walks up into the repository.
    await writeFile(path.join(prefix, 'package.json'), JSON.stringify({ name: `clients-${group.name}`, private: true }));
    try {
      await run('npm', ['install', '--no-audit', '--no-fund', '--no-save', '--prefix', prefix, ...group.packages], {
        timeout: 20 * 60_000,
        maxBuffer: 16 * 1024 * 1024,
      });
      await writeFile(marker, `${new Date().toISOString()}\n`);
      return { type: 'installed', prefix, fromCache: false, seconds: Math.round((Date.now() - started) / 1000) };
    } catch (error) {
      lastError = String((error as { stderr?: string }).stderr || (error as Error).message)
        .trim()
        .split('\n')
        .slice(-3)
        .join(' ');
      if (attempt < attempts) await sleep(5_000 * attempt);
    }
  }
  return { type: 'unavailable', reason: `npm install ${group.packages.join(' ')} failed ${attempts} times: ${lastError}` };
}
