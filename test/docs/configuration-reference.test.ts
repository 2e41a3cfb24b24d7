/**
 * The configuration reference (docs/configuration.md) names every field the config schema accepts, and the
 * defaults it gives for `server.*` are the ones the gateway applies: a field added to the schema without a
 * row, or a default changed in code and not in the page, fails here.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { configFileSchema } from '../../src/config/config-schema.js';
import { defaultServer } from '../../src/config/normalize-config.js';

const reference = readFileSync(new URL('../../docs/configuration.md', import.meta.url), 'utf8');

type SchemaNode = { properties?: Record<string, SchemaNode>; additionalProperties?: SchemaNode | boolean };

/** The dotted paths a reader looks up: each top-level field, each field of a section, each field of a provider. */
function documentedPaths(): string[] {
  const root = configFileSchema as unknown as SchemaNode;
  const paths: string[] = [];
  for (const [section, node] of Object.entries(root.properties ?? {})) {
    paths.push(section);
    for (const field of Object.keys(node.properties ?? {})) paths.push(`${section}.${field}`);
  }
  const provider = root.properties?.['providers']?.additionalProperties as SchemaNode;
  for (const field of Object.keys(provider.properties ?? {})) paths.push(`providers.<name>.${field}`);
  return paths;
}

/** The reference's rows as path → default column, a row that names several paths giving each the same cell. */
function referenceRows(): Map<string, string> {
  const rows = new Map<string, string>();
  for (const line of reference.split('\n')) {
    const cells = line.split(' | ');
    if (!line.startsWith('| `') || cells.length < 3) continue;
    for (const match of (cells[0] as string).matchAll(/`([^`]+)`/g)) rows.set(match[1] as string, cells[1] as string);
  }
  return rows;
}

describe('the configuration reference', () => {
  const rows = referenceRows();

  it.each(documentedPaths())('has a row for %s', (path) => {
    // A section documented field by field (`server.port`, …) needs no row of its own.
    const named = rows.has(path) || [...rows.keys()].some((row) => row.startsWith(`${path}.`));
    expect(named, `docs/configuration.md names no \`${path}\``).toBe(true);
  });

  it.each(Object.entries(defaultServer))('gives server.%s the default the gateway applies', (field, value) => {
    const cell = rows.get(`server.${field}`);
    expect(cell).toBeDefined();
    expect((cell as string).replaceAll('`', '').replaceAll(',', '').trim()).toBe(String(value));
  });
});
