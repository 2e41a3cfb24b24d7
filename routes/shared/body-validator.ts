/**
 * Compiles a request-body JSON Schema once and turns its first error into a 400 naming the field.
 * A body carrying a shared tool list skips re-validating the list (see known-list-check.ts) when the
 * caller passes the app's caches.
 */
import { Ajv, type ErrorObject } from 'ajv';
import { invalidRequest } from '../../src/core/gateway-error.js';
import type { RequestCaches } from '../../src/core/request-caches.js';
import { compileKnownListCheck } from './known-list-check.js';

const ajv = new Ajv({ allErrors: false, strict: false });

/** `/messages/0/role` → `messages[0].role` (the way OpenAI names params). */
export function paramFromPath(instancePath: string, property?: string): string {
  const segments = instancePath.split('/').slice(1);
  if (property !== undefined) segments.push(property);
  return segments.reduce((path, segment) => (/^\d+$/.test(segment) ? `${path}[${segment}]` : path ? `${path}.${segment}` : segment), '');
}

function describe(error: ErrorObject): { message: string; param: string } {
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'required') {
    const param = paramFromPath(error.instancePath, String(params.missingProperty));
    return { message: `Missing required parameter: '${param}'.`, param };
  }
  const param = paramFromPath(error.instancePath) || '(body)';
  if (error.keyword === 'enum') {
    return {
      message: `Invalid value for '${param}': must be one of ${(params.allowedValues as unknown[]).map((value) => JSON.stringify(value)).join(', ')}.`,
      param,
    };
  }
  if (error.keyword === 'const') return { message: `Invalid value for '${param}': must be ${JSON.stringify(params.allowedValue)}.`, param };
  return { message: `Invalid value for '${param}': ${error.message ?? 'invalid'}.`, param };
}

export function compileBodyValidator<T>(schema: object): (body: unknown, caches?: Pick<RequestCaches, 'toolListVerdicts'>) => T {
  const validate = ajv.compile(schema);
  const knownListCheck = compileKnownListCheck(ajv, schema);
  return (body: unknown, caches?: Pick<RequestCaches, 'toolListVerdicts'>): T => {
    if (body === null || typeof body !== 'object' || Array.isArray(body))
      throw invalidRequest('The request body must be a JSON object.', null);
    // The shortcut only ever says "valid"; anything else gets the full validator and its usual error.
    const valid =
      knownListCheck !== undefined && caches !== undefined && knownListCheck(body as Record<string, unknown>, caches.toolListVerdicts);
    if (!valid && !validate(body)) {
      // With anyOf, ajv reports each branch; the deepest error says most about what is wrong.
      const errors = validate.errors ?? [];
      const deepest = errors.reduce<ErrorObject | undefined>(
        (best, error) => (!best || error.instancePath.length > best.instancePath.length ? error : best),
        undefined,
      );
      const { message, param } = deepest ? describe(deepest) : { message: 'Invalid request body.', param: '(body)' };
      throw invalidRequest(message, param);
    }
    return body as T;
  };
}
