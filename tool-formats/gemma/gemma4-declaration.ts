/** Gemma 4's tool declarations: `<|tool>declaration:NAME{description:…,parameters:{…}}<tool|>`, as its template writes them. */
// Schema keywords are written bare and upper-cased types delimited; a property's parts come in the
// template's order (description, nullable, enum, properties and required, items, type). Two template
// slips are not copied: it skips properties named like a keyword (`description`, `type`, …) and leaves
// `parameters:{` open when the schema has no `type`.
// @see https://github.com/ggml-org/llama.cpp/blob/master/models/templates/gemma4.jinja
import type { ToolDefinition } from '../../src/core/index.js';
import { isPlainObject } from '../shared/call-arguments.js';
import { formatGemma4Value, gemma4String } from './gemma4-values.js';

const declared = { delimitKeys: true, sortKeys: true };

export function renderGemma4Declarations(tools: readonly ToolDefinition[]): string {
  return tools.map((tool) => `<|tool>${declaration(tool)}<tool|>`).join('');
}

function declaration(tool: ToolDefinition): string {
  const parts = [`description:${gemma4String(tool.description ?? '')}`];
  if (Object.keys(tool.parameters).length > 0) parts.push(`parameters:{${schemaParts(tool.parameters).join(',')}}`);
  return `declaration:${tool.name}{${parts.join(',')}}`;
}

/** The members of an object schema: its properties, required list and type. */
function schemaParts(schema: Record<string, unknown>): string[] {
  const parts: string[] = [];
  // An empty properties object is left out, as the template's truth test leaves it out.
  if (isPlainObject(schema['properties']) && Object.keys(schema['properties']).length > 0)
    parts.push(`properties:{${properties(schema['properties'])}}`);
  const required = requiredList(schema['required']);
  if (required !== undefined) parts.push(required);
  if (typeof schema['type'] === 'string') parts.push(`type:${gemma4String(schema['type'].toUpperCase())}`);
  return parts;
}

function properties(members: Record<string, unknown>): string {
  return Object.keys(members)
    .sort()
    .map((key) => `${key}:{${property(isPlainObject(members[key]) ? members[key] : {}).join(',')}}`)
    .join(',');
}

function property(schema: Record<string, unknown>): string[] {
  const parts: string[] = [];
  if (typeof schema['description'] === 'string' && schema['description'] !== '')
    parts.push(`description:${gemma4String(schema['description'])}`);
  if (schema['nullable'] === true) parts.push('nullable:true');
  const type = (Array.isArray(schema['type']) ? schema['type'][0] : schema['type']) as unknown;
  const upperType = typeof type === 'string' ? type.toUpperCase() : 'STRING';
  if (upperType === 'STRING' && Array.isArray(schema['enum'])) parts.push(`enum:${formatGemma4Value(schema['enum'], declared)}`);
  if (upperType === 'OBJECT') {
    parts.push(`properties:{${properties(isPlainObject(schema['properties']) ? schema['properties'] : {})}}`);
    const required = requiredList(schema['required']);
    if (required !== undefined) parts.push(required);
  }
  if (upperType === 'ARRAY' && isPlainObject(schema['items']) && Object.keys(schema['items']).length > 0)
    parts.push(`items:{${items(schema['items']).join(',')}}`);
  parts.push(`type:${gemma4String(upperType)}`);
  return parts;
}

function items(schema: Record<string, unknown>): string[] {
  return Object.keys(schema)
    .sort()
    .flatMap((key) => {
      const value = schema[key];
      if (value === null || value === undefined) return [];
      if (key === 'properties') return [`properties:{${isPlainObject(value) ? properties(value) : ''}}`];
      if (key === 'required') return [requiredList(value) ?? 'required:[]'];
      if (key === 'type')
        return [
          `type:${formatGemma4Value(Array.isArray(value) ? value.map((item) => String(item).toUpperCase()) : String(value).toUpperCase(), declared)}`,
        ];
      return [`${key}:${formatGemma4Value(value, declared)}`];
    });
}

function requiredList(value: unknown): string | undefined {
  if (!Array.isArray(value) || value.length === 0) return undefined;
  return `required:[${value.map((name) => gemma4String(String(name))).join(',')}]`;
}
