/**
 * The code blocks of the README and docs/ stay true: a YAML block that names `providers` is a whole config
 * and must pass the gateway's own validation (as `--check-config` would, every `${VAR}` set); any other
 * YAML or JSON block must at least parse; every `npm run NAME` the pages mention must name a script that exists.
 * Blocks meant as illustration are fenced as `text`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { ConfigError } from '../../src/config/config-error.js';
import { interpolateEnvironment } from '../../src/config/interpolate-environment.js';
import { normalizeConfig } from '../../src/config/normalize-config.js';
import { compileConfigFileValidator } from '../../src/config/validate-config-file.js';

const root = new URL('../../', import.meta.url);
const pages = [
  'README.md',
  ...readdirSync(new URL('docs/', root))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];
const scripts = Object.keys(
  (JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as { scripts: Record<string, string> }).scripts,
);
const validateConfigFile = compileConfigFileValidator();

type Block = { page: string; line: number; language: string; text: string };

function blocksOf(page: string): Block[] {
  const lines = readFileSync(new URL(page, root), 'utf8').split('\n');
  const blocks: Block[] = [];
  for (let index = 0; index < lines.length; index++) {
    const opening = /^```(\w*)/.exec(lines[index] as string);
    if (!opening) continue;
    const start = index;
    const body: string[] = [];
    for (index++; index < lines.length && !(lines[index] as string).startsWith('```'); index++) body.push(lines[index] as string);
    blocks.push({ page, line: start + 1, language: opening[1] ?? '', text: body.join('\n') });
  }
  return blocks;
}

/** Every `${VAR}` a config names, set to a placeholder, as the operator's environment would set it. */
const anyEnvironment = new Proxy(
  {},
  { get: (_target, name) => (typeof name === 'string' ? `placeholder-${name.toLowerCase()}` : undefined) },
) as Record<string, string>;

const blocks = pages.flatMap(blocksOf);

describe('documentation code blocks', () => {
  it('finds the pages and their blocks', () => {
    expect(pages.length).toBeGreaterThan(10);
    expect(blocks.filter((block) => block.language === 'yaml').length).toBeGreaterThan(10);
  });

  it.each(blocks.filter((block) => block.language === 'yaml').map((block) => [`${block.page}:${block.line}`, block] as const))(
    'YAML %s parses, and is a valid config when it names providers',
    (_where, block) => {
      const parsed: unknown = parseYaml(block.text);
      if (parsed === null || typeof parsed !== 'object' || !('providers' in parsed)) return;
      try {
        normalizeConfig(validateConfigFile(interpolateEnvironment(parsed, anyEnvironment)), {});
      } catch (error) {
        if (error instanceof ConfigError) throw new Error(`${block.page}:${block.line}: ${error.message}`);
        throw error;
      }
    },
  );

  it.each(blocks.filter((block) => block.language === 'json').map((block) => [`${block.page}:${block.line}`, block] as const))(
    'JSON %s parses',
    (_where, block) => {
      expect(() => JSON.parse(block.text) as unknown).not.toThrow();
    },
  );

  it('every `npm run NAME` the pages mention names a script in package.json', () => {
    const named = pages.flatMap((page) =>
      [...readFileSync(new URL(page, root), 'utf8').matchAll(/npm run ([\w:-]+)/g)].map((match) => ({ page, name: match[1] as string })),
    );
    expect(named.length).toBeGreaterThan(0);
    for (const { page, name } of named) expect(scripts, `${page}: npm run ${name}`).toContain(name);
  });
});
