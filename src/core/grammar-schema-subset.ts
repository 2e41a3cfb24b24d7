/**
 * A JSON Schema narrowed to the subset that Claude's structured outputs (the Anthropic API, Claude on Vertex
 * AI) and Bedrock's Converse compile into a grammar. Both answer 400 for anything else, where OpenAI takes it:
 * "output_config.format.schema: For 'integer' type, property 'minimum' is not supported", "For 'object'
 * type, 'additionalProperties' must be explicitly set to false" (Anthropic's "JSON Schema limitations",
 * https://platform.claude.com/docs/en/build-with-claude/structured-outputs; Bedrock validates against the
 * same kind of subset and requires `additionalProperties: false` on every object,
 * https://docs.aws.amazon.com/bedrock/latest/userguide/structured-output.html).
 *
 * As Anthropic's own SDKs do (anthropic-sdk-typescript `src/lib/transform-json-schema.ts`): every object is
 * closed, `oneOf` becomes `anyOf`, string formats outside the supported list and `minItems` above 1 are
 * dropped, and every other keyword outside the subset leaves the schema for its description, where the model
 * still reads it. The gateway checks each reply against the client's own schema afterwards
 * (src/pipeline/check-response-format.ts), so a bound the grammar could not hold is still reported when broken.
 *
 * Some schemas have no faithful narrowing, and go into the prompt instead (the pipeline asks `narrowable`):
 * a free-form object (no `properties`) would be closed to `{}` alone, a value with no type at all cannot be
 * compiled, and recursive or external `$ref`s are refused outright.
 */

import type { StrictSchemaBudget } from './strict-schema-limits.js';
import { strictNotGuaranteedCode, type Warning } from './warning.js';

type Schema = Record<string, unknown>;

/** The schema to send, and the keywords that left it for descriptions (for the strict warning). */
export type NarrowedSchema = { schema: Schema; relaxed: string[] };

const supportedStringFormats: ReadonlySet<string> = new Set([
  'date-time',
  'time',
  'date',
  'duration',
  'email',
  'hostname',
  'uri',
  'ipv4',
  'ipv6',
  'uuid',
]);

/** Keywords copied as they are: they say nothing the grammar cannot hold. */
const keptAsGiven: ReadonlySet<string> = new Set(['type', 'description', 'title', 'const', 'enum', 'required']);

/**
 * Keywords about the schema document, not the value (the dialect, its identity, a note to its authors): left
 * out, neither sent nor written into a description nor warned as a bound the grammar cannot hold. The openai
 * SDK's `zodResponseFormat` writes `$schema` on every schema.
 */
const aboutTheDocument: ReadonlySet<string> = new Set(['$schema', '$id', '$comment']);

function isSchema(value: unknown): value is Schema {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function describesObject(schema: Schema): boolean {
  const type = schema.type;
  return type === 'object' || (Array.isArray(type) && type.includes('object')) || (type === undefined && isSchema(schema.properties));
}

function mapSchemas(value: unknown, narrow: (schema: Schema) => Schema): unknown {
  if (Array.isArray(value)) return value.map((entry) => (isSchema(entry) ? narrow(entry) : entry));
  if (!isSchema(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, isSchema(entry) ? narrow(entry) : entry]));
}

function describeRelaxed(description: unknown, relaxed: Schema): string {
  const listed = `{${Object.entries(relaxed)
    .map(([key, value]) => `${key}: ${JSON.stringify(value)}`)
    .join(', ')}}`;
  return typeof description === 'string' && description !== '' ? `${description}\n\n${listed}` : listed;
}

class SchemaNarrowing {
  readonly relaxed = new Set<string>();

  narrow(schema: Schema): Schema {
    if (typeof schema.$ref === 'string') return { $ref: schema.$ref };
    const kept: Schema = {};
    const relaxed: Schema = {};
    const narrowOne = (entry: Schema) => this.narrow(entry);
    for (const [key, value] of Object.entries(schema)) {
      if (keptAsGiven.has(key)) kept[key] = value;
      else if (aboutTheDocument.has(key)) continue;
      else if (key === '$defs' || key === 'definitions' || key === 'properties') kept[key] = mapSchemas(value, narrowOne);
      else if (key === 'anyOf' || key === 'allOf') kept[key] = mapSchemas(value, narrowOne);
      else if (key === 'oneOf' && !('anyOf' in schema)) kept.anyOf = mapSchemas(value, narrowOne);
      else if (key === 'items' && isSchema(value)) kept.items = this.narrow(value);
      else if (key === 'minItems' && (value === 0 || value === 1)) kept.minItems = value;
      else if (key === 'format' && typeof value === 'string' && supportedStringFormats.has(value)) kept.format = value;
      // Closed below, as the subset requires; extra members were allowed, never required, so a reply without them still validates.
      else if (key === 'additionalProperties') continue;
      else relaxed[key] = value;
    }
    if (describesObject(schema)) kept.additionalProperties = false;
    const relaxedKeys = Object.keys(relaxed);
    if (relaxedKeys.length > 0) {
      kept.description = describeRelaxed(kept.description, relaxed);
      for (const key of relaxedKeys) this.relaxed.add(key);
    }
    return kept;
  }
}

export function narrowToGrammarSubset(schema: Schema): NarrowedSchema {
  const narrowing = new SchemaNarrowing();
  const narrowed = narrowing.narrow(schema);
  return { schema: narrowed, relaxed: [...narrowing.relaxed] };
}

/**
 * A `json_schema` response format's schema as a grammar-compiling upstream gets it, with the warning a
 * strict format is owed when bounds had to leave the schema (the gateway's check still holds the reply to them).
 */
export function grammarFormatSchema(
  format: { name: string; schema: Schema; strict?: boolean | null },
  upstream: string,
): { schema: Schema; warnings: Warning[] } {
  const { schema, relaxed } = narrowToGrammarSubset(format.schema);
  if (format.strict !== true || relaxed.length === 0) return { schema, warnings: [] };
  const message =
    `response_format '${format.name}' asked for strict: ${upstream}'s structured outputs cannot enforce ${relaxed.join(', ')}, ` +
    'so they went into the schema descriptions, and the gateway checks the reply against them.';
  return { schema, warnings: [{ code: strictNotGuaranteedCode, message }] };
}

/** A tool as a grammar-compiling upstream gets it: its schema, and whether it goes `strict`. */
export type GrammarTool = { schema: Schema; strict: boolean; warnings: Warning[] };

/**
 * A tool's input schema for Claude's strict tool use or Bedrock's `toolSpec.strict`
 * (https://platform.claude.com/docs/en/agents-and-tools/tool-use/strict-tool-use: the same grammar and subset as
 * structured outputs). A tool that did not ask for strict goes as given, as before. One that did goes strict
 * with its schema narrowed when the model takes strict (`modelGap` undefined) and the schema has a faithful
 * narrowing; otherwise it goes as given, not strict, with a warning saying why: sent strict, the upstream
 * would refuse the whole request. With a `budget` (Claude's per-request limits, src/core/strict-schema-limits.ts),
 * a tool that would take the request past one goes the same way. Bounds that left a strict schema are warned
 * too: nothing enforces them.
 */
export function grammarToolSchema(
  tool: { name: string; parameters: Schema; strict?: boolean | null },
  upstream: string,
  modelGap: string | undefined,
  budget?: StrictSchemaBudget,
): GrammarTool {
  if (tool.strict !== true) return { schema: tool.parameters, strict: false, warnings: [] };
  const notStrict = (why: string): GrammarTool => ({
    schema: tool.parameters,
    strict: false,
    warnings: [{ code: strictNotGuaranteedCode, message: `tool '${tool.name}' asked for strict: ${why}, so it was sent without strict.` }],
  });
  if (modelGap) return notStrict(modelGap);
  const gap = grammarSubsetGap(tool.parameters);
  if (gap) return notStrict(`${upstream}'s strict tool use cannot compile its schema: ${gap}`);
  const { schema, relaxed } = narrowToGrammarSubset(tool.parameters);
  // Counted as sent (narrowed: a oneOf is an anyOf by then); past a limit the upstream would refuse the request.
  const over = budget?.admit(schema, 'tool');
  if (over) return notStrict(`${over}, past what ${upstream}'s strict tool use compiles`);
  if (relaxed.length === 0) return { schema, strict: true, warnings: [] };
  const message =
    `tool '${tool.name}' went strict, but ${upstream}'s strict tool use cannot enforce ${relaxed.join(', ')}: ` +
    'they went into the schema descriptions, and arguments may break them.';
  return { schema, strict: true, warnings: [{ code: strictNotGuaranteedCode, message }] };
}

/** The JSON Pointer a local `$ref` names, as path segments (`#/$defs/a~1b` → ['$defs', 'a/b']); undefined for an external one. */
function localPointer(ref: string): string[] | undefined {
  if (ref === '#') return [];
  if (!ref.startsWith('#/')) return undefined;
  return ref
    .slice(2)
    .split('/')
    .map((segment) => segment.replaceAll('~1', '/').replaceAll('~0', '~'));
}

function resolve(root: Schema, segments: string[]): Schema | undefined {
  let current: unknown = root;
  for (const segment of segments) {
    if (!isSchema(current) && !Array.isArray(current)) return undefined;
    current = (current as Record<string, unknown>)[segment];
  }
  return isSchema(current) ? current : undefined;
}

/** Walks a schema for what has no faithful narrowing; the first reason found, or undefined. */
class NarrowabilityCheck {
  private readonly onPath = new Set<Schema>();
  /** Walked already and found narrowable: a definition named by many `$ref`s is walked once, not once per path. */
  private readonly narrowable = new Set<Schema>();

  constructor(private readonly root: Schema) {}

  reason(schema: Schema): string | undefined {
    if (this.onPath.has(schema)) return 'it is recursive';
    if (this.narrowable.has(schema)) return undefined;
    this.onPath.add(schema);
    const found = this.ownReason(schema) ?? this.childReason(schema);
    this.onPath.delete(schema);
    if (!found) this.narrowable.add(schema);
    return found;
  }

  private ownReason(schema: Schema): string | undefined {
    if (typeof schema.$ref === 'string') {
      const pointer = localPointer(schema.$ref);
      if (!pointer) return `it refers to an external schema (${schema.$ref})`;
      const target = resolve(this.root, pointer);
      return target ? this.reason(target) : `its $ref ${schema.$ref} names nothing in the schema`;
    }
    const composed = ['anyOf', 'oneOf', 'allOf', 'enum', 'const'].some((key) => key in schema);
    if (schema.type === undefined && !composed && !isSchema(schema.properties)) return 'a value in it may be anything (no type)';
    if (describesObject(schema) && !isSchema(schema.properties)) return 'an object in it has no properties (a free-form object)';
    return undefined;
  }

  private childReason(schema: Schema): string | undefined {
    const children: unknown[] = [];
    for (const key of ['properties', '$defs', 'definitions'] as const)
      if (isSchema(schema[key])) children.push(...Object.values(schema[key]));
    for (const key of ['anyOf', 'oneOf', 'allOf'] as const) if (Array.isArray(schema[key])) children.push(...schema[key]);
    if (isSchema(schema.items)) children.push(schema.items);
    for (const child of children) {
      const found = isSchema(child) ? this.reason(child) : undefined;
      if (found) return found;
    }
    return undefined;
  }
}

/** Why a schema cannot go to a grammar-compiling upstream faithfully, or undefined when it can be narrowed. */
export function grammarSubsetGap(schema: Schema): string | undefined {
  return new NarrowabilityCheck(schema).reason(schema);
}
