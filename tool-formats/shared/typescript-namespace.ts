/** Renders tools as Harmony's TypeScript-like `namespace functions { type NAME = (_: {…}) => any; }` block. */
// gpt-oss was trained on this rendering of JSON Schema; it follows openai/harmony's
// `json_schema_to_typescript` and `template_tools_section`: descriptions as `//` comments above the
// field, `?` for optional fields, enums as unions of literals, `// default: …` after the field, an
// empty line after each function, `() => any` without parameters. Nested objects are indented four
// spaces per level, with the closing brace under the field that opens it.
// @see https://github.com/openai/harmony/blob/main/docs/format.md#function-calling
import type { ToolDefinition } from '../../src/core/index.js';
import { isPlainObject } from './call-arguments.js';

const nestedIndent = '    ';
const identifierPattern = /^[A-Za-z_$][\w$]*$/;

/** `## NAMESPACE` and the namespace block, as in a Harmony developer message's `# Tools` section. */
export function renderFunctionsNamespace(tools: readonly ToolDefinition[], namespace = 'functions'): string {
  const functions = tools.map((tool) => `${renderFunctionType(tool)}\n\n`).join('');
  return `## ${namespace}\n\nnamespace ${namespace} {\n\n${functions}} // namespace ${namespace}`;
}

export function renderFunctionType(tool: ToolDefinition): string {
  const comments = commentLines(tool.description, '');
  const parameters = tool.parameters;
  const signature = hasProperties(parameters) ? `(_: ${renderObject(parameters, '', '')}) => any` : '() => any';
  return `${comments}type ${tool.name} = ${signature};`;
}

/** The TypeScript type of a JSON Schema; `indent` is the indentation of the line the type starts on. */
export function renderSchemaType(schema: unknown, indent: string): string {
  if (!isPlainObject(schema)) return 'any';
  const rendered = renderNonNullable(schema, indent);
  return schema['nullable'] === true && !rendered.split(' | ').includes('null') ? `${rendered} | null` : rendered;
}

function renderNonNullable(schema: Record<string, unknown>, indent: string): string {
  const variants = schema['oneOf'] ?? schema['anyOf'];
  if (Array.isArray(variants) && variants.length > 0) return union(variants.map((variant) => renderSchemaType(variant, indent)));
  if (Array.isArray(schema['enum']) && schema['enum'].length > 0)
    return union(schema['enum'].map((value) => JSON.stringify(value) ?? 'null'));
  if ('const' in schema) return JSON.stringify(schema['const']) ?? 'any';
  const type = schema['type'];
  if (Array.isArray(type) && type.length > 0)
    return union(type.map((member) => renderSchemaType({ ...schema, type: member, nullable: false }, indent)));
  switch (type) {
    case 'string':
      return 'string';
    case 'number':
    case 'integer':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'null':
      return 'null';
    case 'array': {
      if (!isPlainObject(schema['items'])) return 'any[]';
      const items = renderSchemaType(schema['items'], indent);
      return items.includes(' | ') && !items.startsWith('{') ? `(${items})[]` : `${items}[]`;
    }
    case 'object':
      return hasProperties(schema) ? renderObject(schema, indent + nestedIndent, indent) : 'object';
    default:
      return hasProperties(schema) ? renderObject(schema, indent + nestedIndent, indent) : 'any';
  }
}

/** `{`, one line (and its comments) per property at `memberIndent`, `}` at `closeIndent`. */
function renderObject(schema: Record<string, unknown>, memberIndent: string, closeIndent: string): string {
  const properties = schema['properties'] as Record<string, unknown>;
  const required = new Set(Array.isArray(schema['required']) ? schema['required'].filter((name) => typeof name === 'string') : []);
  const members = Object.entries(properties).map(([name, property]) => {
    const description = isPlainObject(property) && typeof property['description'] === 'string' ? property['description'] : undefined;
    const key = identifierPattern.test(name) ? name : JSON.stringify(name);
    const optional = required.has(name) ? '' : '?';
    return `${commentLines(description, memberIndent)}${memberIndent}${key}${optional}: ${renderSchemaType(property, memberIndent)},${defaultComment(property)}\n`;
  });
  return `{\n${members.join('')}${closeIndent}}`;
}

/** ` // default: …`: a string default is quoted unless the field is an enum, as openai/harmony does. */
function defaultComment(property: unknown): string {
  if (!isPlainObject(property) || !('default' in property)) return '';
  const value = property['default'];
  const text = typeof value === 'string' && Array.isArray(property['enum']) ? value : JSON.stringify(value);
  return ` // default: ${text}`;
}

function commentLines(text: string | undefined, indent: string): string {
  if (text === undefined || text.trim() === '') return '';
  return text
    .trim()
    .split(/\r?\n/)
    .map((line) => `${indent}// ${line.trimEnd()}\n`)
    .join('');
}

function hasProperties(schema: Record<string, unknown>): boolean {
  return isPlainObject(schema['properties']) && Object.keys(schema['properties']).length > 0;
}

function union(members: readonly string[]): string {
  return [...new Set(members)].join(' | ');
}
