/**
 * Every relative link of the README and docs/ reaches a file that exists, and a `#anchor` into a page
 * reaches one of its headings (GitHub's slugs): a file merged or renamed, or a heading reworded, fails here
 * rather than in a reader's browser.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../helpers/gateway-process.js';

const pages = [
  'README.md',
  ...readdirSync(path.join(projectRoot, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

/** GitHub's heading anchor: lower case, punctuation dropped (hyphens and underscores kept), spaces as hyphens. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[`*]/g, '')
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** A page's headings, fenced code left out (a `#` comment there is no heading). */
function anchorsOf(file: string): Set<string> {
  const anchors = new Set<string>();
  let fenced = false;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const heading = fenced ? null : /^#{1,6} (.+)$/.exec(line);
    if (heading) anchors.add(slug(heading[1] as string));
  }
  return anchors;
}

type Link = { page: string; target: string };

function linksOf(page: string): Link[] {
  const text = readFileSync(path.join(projectRoot, page), 'utf8').replace(/^```[\s\S]*?^```/gm, '');
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((match) => match[1] as string)
    .filter((target) => !/^[a-z]+:/.test(target))
    .map((target) => ({ page, target }));
}

const links = pages.flatMap(linksOf);

describe('the links of the README and docs', () => {
  it('finds them', () => {
    expect(links.length).toBeGreaterThan(50);
  });

  it.each(links.map((link) => [`${link.page} → ${link.target}`, link] as const))('%s resolves', (_name, { page, target }) => {
    const [file, anchor] = target.split('#') as [string, string | undefined];
    const resolved = file === '' ? path.join(projectRoot, page) : path.join(projectRoot, path.dirname(page), decodeURI(file));
    expect(existsSync(resolved), `${resolved} does not exist`).toBe(true);
    if (anchor !== undefined && resolved.endsWith('.md')) expect([...anchorsOf(resolved)]).toContain(anchor);
  });
});
