/** Compiled ajv validators for `response_format` schemas, compiled once per schema and kept in a bounded memo (built in app.ts). */
import { Ajv, type ValidateFunction } from 'ajv';
import type { RegExpEngine, RegExpLike } from 'ajv/dist/types/index.js';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ResponseFormatError } from '../core/diagnostics.js';
import safeRegex from 'safe-regex2';
import { RecentMemo } from '../core/recent-memo.js';

export type SchemaErrors = ResponseFormatError['errors'];

/** Errors of `value` against `schema`: empty when it is valid. */
export type SchemaCheck = (schema: Record<string, unknown>, value: unknown) => SchemaErrors;

/** A schema ajv cannot compile: the client's schema is its own business, so the reply is only checked for JSON. */
const acceptAnything: ValidateFunction = Object.assign(() => true, { errors: null }) as unknown as ValidateFunction;

type AnyAjv = Ajv | Ajv2019 | Ajv2020;

/**
 * The client writes the schema's `pattern`s and the model the text they run on, on the gateway's one thread:
 * a pattern that backtracks exponentially (`^(a+)+$` against forty characters and a mismatch) would stop
 * every request for minutes. Patterns safe-regex2 finds dangerous (a quantifier inside a quantified group,
 * more than 25 repetitions) are not run: the value passes that keyword unchecked (the upstream, given the
 * schema, may still have held the model to it), and every other keyword is checked as before.
 */
function patternEngine(): RegExpEngine {
  const engine = (pattern: string, flags: string): RegExpLike => {
    let safe: boolean;
    try {
      safe = safeRegex(pattern);
    } catch {
      safe = false;
    }
    if (safe) return new RegExp(pattern, flags);
    // ajv keys its compiled patterns by their text: each unchecked one keeps its own.
    const unchecked: RegExpLike & { toString(): string } = {
      test: () => true,
      toString: () => `/${pattern}/${flags} (not run: may backtrack exponentially)`,
    };
    return unchecked;
  };
  // `code` names the engine in standalone code, which the gateway does not generate.
  return Object.assign(engine, { code: 'safePatternEngine' });
}

/**
 * The validator for the dialect a schema names in `$schema` (https://json-schema.org/specification-links):
 * draft 2020-12 (what Zod 4's `z.toJSONSchema` writes) and 2019-09 have their own ajv classes, whose
 * `prefixItems`, `$defs` and `items` mean what those drafts say; anything else is read as draft-07. The
 * `$schema` itself is left out of what is compiled: a draft-07 ajv knows no 2020-12 meta-schema, and failing
 * to compile would leave every reply unchecked.
 */
function dialects(): (schema: Record<string, unknown>) => { ajv: AnyAjv; schema: Record<string, unknown> } {
  // strict: false — clients send OpenAI-style schemas with keywords ajv does not know (e.g. `strict`-mode extras).
  const options = { allErrors: true, strict: false, validateFormats: false, code: { regExp: patternEngine() } };
  const draft07 = new Ajv(options);
  let draft2019: Ajv2019 | undefined;
  let draft2020: Ajv2020 | undefined;
  return (schema) => {
    const { $schema: dialect, ...rest } = schema;
    const named = typeof dialect === 'string' ? dialect : '';
    if (named.includes('2020-12')) return { ajv: (draft2020 ??= new Ajv2020(options)), schema: rest };
    if (named.includes('2019-09')) return { ajv: (draft2019 ??= new Ajv2019(options)), schema: rest };
    return { ajv: draft07, schema: named ? rest : schema };
  };
}

export function createSchemaCheck(capacity = 256): SchemaCheck {
  const dialectOf = dialects();
  // Keyed by the schema's text: the same schema arrives as a new object on every request.
  const compiled = new RecentMemo<string, ValidateFunction>(capacity);
  return (schema, value) => {
    const validate = compiled.get(JSON.stringify(schema), () => {
      const { ajv, schema: compilable } = dialectOf(schema);
      try {
        return ajv.compile(compilable);
      } catch {
        return acceptAnything;
      } finally {
        // ajv keeps every schema it compiled (and claims its `$id`): this memo is the only cache, so its bound
        // holds, and a later schema with the same `$id` compiles instead of failing. The validator keeps working.
        ajv.removeSchema(compilable);
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
