/** Compiled ajv validators for `response_format` schemas, compiled once per schema and kept in a bounded memo (built in app.ts). */
import { Ajv, type ValidateFunction } from 'ajv';
import type { ResponseFormatError } from '../core/diagnostics.js';
import { RecentMemo } from '../core/recent-memo.js';

export type SchemaErrors = ResponseFormatError['errors'];

/** Errors of `value` against `schema`: empty when it is valid. */
export type SchemaCheck = (schema: Record<string, unknown>, value: unknown) => SchemaErrors;

/** A schema ajv cannot compile: the client's schema is its own business, so the reply is only checked for JSON. */
const acceptAnything: ValidateFunction = Object.assign(() => true, { errors: null }) as unknown as ValidateFunction;

export function createSchemaCheck(capacity = 256): SchemaCheck {
  // strict: false — clients send OpenAI-style schemas with keywords ajv does not know (e.g. `strict`-mode extras).
  const ajv = new Ajv({ allErrors: true, strict: false, validateFormats: false });
  // Keyed by the schema's text: the same schema arrives as a new object on every request.
  const compiled = new RecentMemo<string, ValidateFunction>(capacity);
  return (schema, value) => {
    const validate = compiled.get(JSON.stringify(schema), () => {
      try {
        return ajv.compile(schema);
      } catch {
        return acceptAnything;
      }
    });
    if (validate(value)) return [];
    return (validate.errors ?? []).map((error) => ({
      instancePath: error.instancePath,
      keyword: error.keyword,
      message: error.message ?? 'is invalid',
      params: { ...error.params },
    }));
  };
}
