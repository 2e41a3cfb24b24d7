/**
 * GET /inspector: the tool-call inspector page (plain HTML, CSS and JS from page/, no build step, no
 * external assets). The page holds no data, so it needs no key; the routes it calls do.
 */
import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';

const pageFiles = [
  { path: '/inspector', file: 'index.html', type: 'text/html; charset=utf-8' },
  { path: '/inspector/inspector.css', file: 'inspector.css', type: 'text/css; charset=utf-8' },
  { path: '/inspector/inspector.js', file: 'inspector.js', type: 'text/javascript; charset=utf-8' },
] as const;

export const inspectorPagePaths: readonly string[] = pageFiles.map((page) => page.path);

export function registerInspectorPage(app: FastifyInstance): void {
  for (const page of pageFiles) {
    // Read once at start: a few kilobytes, served from memory.
    const body = readFileSync(new URL(`./page/${page.file}`, import.meta.url));
    app.get(page.path, async (_request, reply) => reply.type(page.type).header('cache-control', 'no-cache').send(body));
  }
}
