/** `npm ci` stays free of EBADENGINE warnings: every locked package accepts the Node we run on. */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

// fastify's own dependency; it brings no types, so only the one function used is declared.
const semver = createRequire(import.meta.url)('semver') as {
  satisfies(version: string, range: string): boolean;
  minVersion(range: string): { version: string } | null;
};

type LockedPackage = { version?: string; engines?: { node?: string } | string[] };
const lock = JSON.parse(readFileSync(new URL('../package-lock.json', import.meta.url), 'utf8')) as {
  packages: Record<string, LockedPackage>;
};
const promised = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { engines: { node: string } }).engines
  .node;

/** The locked packages whose engines.node excludes `nodeVersion`, as `path@version wants node RANGE`. */
function packagesExcluding(nodeVersion: string): string[] {
  return Object.entries(lock.packages).flatMap(([path, locked]) => {
    const range = !Array.isArray(locked.engines) ? locked.engines?.node : undefined;
    return range && !semver.satisfies(nodeVersion, range) ? [`${path}@${locked.version} wants node ${range}`] : [];
  });
}

describe('package-lock.json', () => {
  it('holds no package whose engines.node excludes the running Node (cookie@2 wanted Node 22; overridden to 1.1.1)', () => {
    expect(packagesExcluding(process.versions.node)).toEqual([]);
  });

  it('holds no package that excludes the oldest Node of each line package.json promises (README: Requirements)', () => {
    // Optional platform bindings for wasm32 and Android are never installed on the machines we promise.
    const installable = (entry: string) => !/binding-(wasm32|android)|wasm-runtime/.test(entry);
    for (const line of promised.split('||')) {
      const oldest = semver.minVersion(line.trim())?.version ?? line;
      expect(packagesExcluding(oldest).filter(installable), `Node ${oldest}`).toEqual([]);
    }
  });

  it('pins cookie (light-my-request, under fastify) to the Node 20 line', () => {
    const cookies = Object.entries(lock.packages).filter(([path]) => path.endsWith('node_modules/cookie'));
    expect(cookies.map(([, locked]) => locked.version)).toEqual(['1.1.1']);
  });
});
