/** openapi.yaml stays true: every documented route exists, and every public route is documented. */
import { readFileSync } from 'node:fs';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { buildApp } from '../src/app.js';
import { normalizeConfig } from '../src/config/normalize-config.js';
import { compileConfigFileValidator } from '../src/config/validate-config-file.js';

/** The config schema is compiled once for the file (as the loader does once per load). */
const validateConfigFile = compileConfigFileValidator();

type Document = { paths: Record<string, Record<string, unknown>> };

const document = parse(readFileSync(new URL('../openapi.yaml', import.meta.url), 'utf8')) as Document;
const methods = ['get', 'post', 'put', 'delete', 'patch'];

/** `{provider}` is a fastify parameter; `{model}` is the rest of the path (ids contain slashes). */
function fastifyPath(path: string): string {
  return path.replace('{model}', '*').replace(/\{(\w+)\}/g, ':$1');
}

/**
 * `METHOD /path` for every route in fastify's printed tree, where each line is a path segment
 * (`├── v1/models (GET, HEAD)`) below the one it is indented under.
 */
function servedRoutes(tree: string): string[] {
  const ancestors: string[] = [];
  const routes: string[] = [];
  for (const line of tree.split('\n')) {
    const match = /^([\s│├└─]*)(\S+) \(([A-Z, ]+)\)/.exec(line);
    if (!match) continue;
    // The root line is drawn one step in (`└── / (HEAD)`).
    const depth = match[1]!.length / 4 - 1;
    const segment = match[2]!;
    const path = depth === 0 ? segment : `${ancestors[depth - 1]!.replace(/\/$/, '')}${segment.startsWith('/') ? '' : '/'}${segment}`;
    ancestors[depth] = path;
    for (const method of match[3]!.split(', ')) if (method !== 'HEAD') routes.push(`${method} ${path}`);
  }
  return routes;
}

describe('openapi.yaml', () => {
  it('documents only routes the gateway serves, and every route it serves', async () => {
    const config = normalizeConfig(
      validateConfigFile({ providers: { local: { type: 'openai-compatible', baseUrl: 'http://127.0.0.1:9/v1' } } }),
      { host: '127.0.0.1', port: 0 },
    );
    const app = await buildApp(config, { logger: pino({ level: 'silent' }) });
    try {
      const documented = Object.entries(document.paths).flatMap(([path, operations]) =>
        Object.keys(operations)
          .filter((key) => methods.includes(key))
          .map((method) => ({ method: method.toUpperCase(), url: fastifyPath(path) })),
      );
      for (const route of documented)
        expect(app.hasRoute(route as { method: 'GET'; url: string }), `${route.method} ${route.url}`).toBe(true);
      const documentedKeys = new Set(documented.map((route) => `${route.method} ${route.url}`));
      // The /{provider}/… copies of each API are described once, on their /v1/… route.
      const served = servedRoutes(app.printRoutes({ commonPrefix: false })).filter(
        (key) => !key.includes('/:provider/v1/') || key.endsWith('/:provider/v1/chat/completions'),
      );
      expect(served.length).toBeGreaterThan(8);
      for (const key of served) expect(documentedKeys.has(key), key).toBe(true);
    } finally {
      await app.close();
    }
  });
});
