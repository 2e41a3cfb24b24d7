/** `npm ci` stays free of EBADENGINE warnings: every locked package accepts the Node we run on. */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

// fastify's own dependency; it brings no types, so only the one function used is declared.
const semver = createRequire(import.meta.url)('semver') as { satisfies(version: string, range: string): boolean };

type LockedPackage = { version?: string; engines?: { node?: string } | string[] };
const lock = JSON.parse(readFileSync(new URL('../package-lock.json', import.meta.url), 'utf8')) as { packages: Record<string, LockedPackage> };

describe('package-lock.json', () => {
  it('holds no package whose engines.node excludes the running Node (cookie@2 wanted Node 22; overridden to 1.1.1)', () => {
    const excluded = Object.entries(lock.packages).flatMap(([path, locked]) => {
      const range = !Array.isArray(locked.engines) ? locked.engines?.node : undefined;
      return range && !semver.satisfies(process.versions.node, range) ? [`${path}@${locked.version} wants node ${range}`] : [];
    });
    expect(excluded).toEqual([]);
  });

  it('pins cookie (light-my-request, under fastify) to the Node 20 line', () => {
    const cookies = Object.entries(lock.packages).filter(([path]) => path.endsWith('node_modules/cookie'));
    expect(cookies.map(([, locked]) => locked.version)).toEqual(['1.1.1']);
  });
});
