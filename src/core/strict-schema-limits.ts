/**
 * What one request's strict schemas may hold together on Claude: Anthropic's explicit "Schema complexity
 * limits" (https://platform.claude.com/docs/en/build-with-claude/structured-outputs#schema-complexity-limits)
 * are at most 20 tools with `strict: true`, 24 optional parameters (a property not in its object's
 * `required`) and 16 parameters with union types (`anyOf`, or a `type` array such as `["string", "null"]`),
 * counted across every strict tool schema and the JSON output schema of the request. Past any of them the API
 * answers 400 for the whole request. The docs' own advice is to mark only the critical tools strict: a tool
 * that would cross a limit goes without strict (src/core/grammar-schema-subset.ts), with a warning, and a
 * response format that crosses one alone goes into the prompt (src/pipeline/native-format-gap.ts).
 */

type Schema = Record<string, unknown>;

export type StrictSchemaLimits = { strictTools: number; optionalParameters: number; unionParameters: number };

export const claudeStrictSchemaLimits: StrictSchemaLimits = { strictTools: 20, optionalParameters: 24, unionParameters: 16 };

/** What one schema adds to a request's counts. */
export type StrictSchemaCounts = { optionalParameters: number; unionParameters: number };

function isSchema(value: unknown): value is Schema {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function hasUnion(schema: Schema): boolean {
  return (Array.isArray(schema.anyOf) && schema.anyOf.length > 0) || (Array.isArray(schema.type) && schema.type.length > 1);
}

/** Walks every subschema once, definitions where they are defined (a `$ref` is not followed). */
export function strictSchemaCounts(root: Schema): StrictSchemaCounts {
  const counts: StrictSchemaCounts = { optionalParameters: 0, unionParameters: 0 };
  const pending: Schema[] = [root];
  for (let schema = pending.pop(); schema; schema = pending.pop()) {
    if (schema !== root && hasUnion(schema)) counts.unionParameters++;
    if (isSchema(schema.properties)) {
      const required = new Set(Array.isArray(schema.required) ? schema.required : []);
      for (const [name, property] of Object.entries(schema.properties)) {
        if (!required.has(name)) counts.optionalParameters++;
        if (isSchema(property)) pending.push(property);
      }
    }
    for (const key of ['$defs', 'definitions'] as const)
      if (isSchema(schema[key])) for (const entry of Object.values(schema[key])) if (isSchema(entry)) pending.push(entry);
    for (const key of ['anyOf', 'allOf'] as const)
      if (Array.isArray(schema[key])) for (const entry of schema[key]) if (isSchema(entry)) pending.push(entry);
    if (isSchema(schema.items)) pending.push(schema.items);
  }
  return counts;
}

/** One request's running counts: each strict schema is admitted while the request stays within the limits. */
export class StrictSchemaBudget {
  private strictTools = 0;
  private optionalParameters = 0;
  private unionParameters = 0;

  constructor(private readonly limits: StrictSchemaLimits = claudeStrictSchemaLimits) {}

  /** Why the schema would take the request past a limit (nothing counted then), or undefined once counted. */
  admit(schema: Schema, kind: 'tool' | 'format'): string | undefined {
    const counts = strictSchemaCounts(schema);
    const { limits } = this;
    const tools = this.strictTools + (kind === 'tool' ? 1 : 0);
    const optional = this.optionalParameters + counts.optionalParameters;
    const unions = this.unionParameters + counts.unionParameters;
    const over =
      tools > limits.strictTools
        ? `${tools} strict tools (at most ${limits.strictTools})`
        : optional > limits.optionalParameters
          ? `${optional} optional parameters (at most ${limits.optionalParameters})`
          : unions > limits.unionParameters
            ? `${unions} parameters with union types (at most ${limits.unionParameters})`
            : undefined;
    if (over) return `with it the request's strict schemas would hold ${over}`;
    this.strictTools = tools;
    this.optionalParameters = optional;
    this.unionParameters = unions;
    return undefined;
  }
}
