/**
 * Compiles a request-body JSON Schema once per app and turns its first error into a 400 naming the
 * field. A body carrying a shared tool list skips re-validating the list (see known-list-check.ts) when
 * the caller passes the app's caches.
 */
import { Ajv, type ErrorObject } from 'ajv';
import { invalidRequest } from '../../src/core/gateway-error.js';
import type { RequestCaches } from '../../src/core/request-caches.js';
import { compileKnownListCheck } from './known-list-check.js';

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

export type BodyValidator<T> = (body: unknown, caches?: Pick<RequestCaches, 'toolListVerdicts'>) => T;

function compileBodyValidator<T>(ajv: Ajv, schema: object): BodyValidator<T> {
  const validate = ajv.compile(schema);
  const knownListCheck = compileKnownListCheck(ajv, schema);
  return (body, caches) => {
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

/**
 * The request-body validators of one app, built in src/app.ts and passed to the routes: ajv keeps the
 * schemas it compiled, which is state, so it lives here rather than in a module. A schema is compiled
 * the first time a request needs it, once per app; every later request finds it in a map.
 */
export class BodyValidators {
  /**
   * `strictNumbers`: a JSON number too large for a double (`"max_tokens": 1e400`) parses as Infinity, which
   * ajv's integer and number checks let through without it (strict: false turns it off), and Infinity goes
   * upstream as `null`: no limit at all. With it, such a number is the field's 400.
   */
  private readonly ajv = new Ajv({ allErrors: false, strict: false, strictNumbers: true });
  private readonly compiled = new Map<object, BodyValidator<unknown>>();

  /** `schema`'s validator; the same schema object always gets the same validator. */
  for<T>(schema: object): BodyValidator<T> {
    let validator = this.compiled.get(schema);
    if (validator === undefined) {
      validator = compileBodyValidator<unknown>(this.ajv, schema);
      this.compiled.set(schema, validator);
    }
    return validator as BodyValidator<T>;
  }
}
