/** Renders tools as Python function stubs with Google-style docstrings, the way Gemma's tool_code prompts list them. */
// Types come from the JSON Schema (`Literal[…]` for enums, `list[…]`, `| None` for nullable);
// required parameters come first, optional ones get their default or `None`. A nested object's keys
// are spelled out in its `Args:` line, since a bare `dict` would hide them.
import type { ToolDefinition } from '../../src/core/index.js';
import { isPlainObject } from '../shared/call-arguments.js';
import { formatPythonValue } from '../shared/format-python-call.js';

const bodyIndent = '    ';
const argumentIndent = '      ';

export function renderPythonStubs(tools: readonly ToolDefinition[]): string {
  return '```python\n' + tools.map(renderPythonStub).join('\n\n') + '\n```';
}

export function renderPythonStub(tool: ToolDefinition): string {
  const properties = isPlainObject(tool.parameters['properties']) ? tool.parameters['properties'] : {};
  const required = requiredNames(tool.parameters);
  const names = Object.keys(properties);
  // Python wants parameters with defaults last.
  const ordered = [...names.filter((name) => required.has(name)), ...names.filter((name) => !required.has(name))];
  const parameters = ordered.map((name) => {
    const schema = properties[name];
    const hint = `${name}: ${renderPythonType(schema)}`;
    if (required.has(name)) return hint;
    return `${hint} = ${isPlainObject(schema) && 'default' in schema ? formatPythonValue(schema['default']) : 'None'}`;
  });
  const argumentLines = ordered.flatMap((name) => {
    const note = describeParameter(properties[name]);
    return note === '' ? [] : [`${argumentIndent}${name}: ${note}`];
  });
  return `def ${tool.name}(${parameters.join(', ')}):\n${renderDocstring(tool.description, argumentLines)}`;
}

/** A Python type hint for a JSON Schema. */
export function renderPythonType(schema: unknown): string {
  if (!isPlainObject(schema)) return 'Any';
  const hint = renderNonNullable(schema);
  return schema['nullable'] === true && !hint.split(' | ').includes('None') ? `${hint} | None` : hint;
}

function renderNonNullable(schema: Record<string, unknown>): string {
  const variants = schema['oneOf'] ?? schema['anyOf'];
  if (Array.isArray(variants) && variants.length > 0) return union(variants.map(renderPythonType));
  if (Array.isArray(schema['enum']) && schema['enum'].length > 0) return `Literal[${schema['enum'].map(formatPythonValue).join(', ')}]`;
  if ('const' in schema) return `Literal[${formatPythonValue(schema['const'])}]`;
  const type = schema['type'];
  if (Array.isArray(type) && type.length > 0)
    return union(type.map((member) => renderPythonType({ ...schema, type: member, nullable: false })));
  switch (type) {
    case 'string':
      return 'str';
    case 'integer':
      return 'int';
    case 'number':
      return 'float';
    case 'boolean':
      return 'bool';
    case 'null':
      return 'None';
    case 'array':
      return isPlainObject(schema['items']) ? `list[${renderPythonType(schema['items'])}]` : 'list';
    case 'object':
      return 'dict';
    default:
      return isPlainObject(schema['properties']) ? 'dict' : 'Any';
  }
}

/** The description, then the keys of a nested object as `{"key": type}`. */
function describeParameter(schema: unknown): string {
  if (!isPlainObject(schema)) return '';
  const description = typeof schema['description'] === 'string' ? oneLine(schema['description']) : '';
  const properties = schema['properties'];
  if (!isPlainObject(properties) || Object.keys(properties).length === 0) return description;
  const required = requiredNames(schema);
  const keys = Object.entries(properties).map(
    ([key, member]) => `${JSON.stringify(key)}${required.has(key) ? '' : ' (optional)'}: ${renderPythonType(member)}`,
  );
  const shape = `A dict {${keys.join(', ')}}.`;
  return description === '' ? shape : `${description} ${shape}`;
}

function renderDocstring(description: string | undefined, argumentLines: readonly string[]): string {
  const summary = (description ?? '').trim().replaceAll('"""', '\\"\\"\\"');
  if (argumentLines.length === 0) return summary === '' ? `${bodyIndent}...` : `${bodyIndent}"""${indentLines(summary)}"""`;
  const head = summary === '' ? '' : `${indentLines(summary)}\n\n${bodyIndent}`;
  return `${bodyIndent}"""${head}Args:\n${argumentLines.join('\n')}\n${bodyIndent}"""`;
}

function indentLines(text: string): string {
  return text
    .split(/\r?\n/)
    .map((line, index) => (index === 0 || line.trim() === '' ? line.trimEnd() : `${bodyIndent}${line.trimEnd()}`))
    .join('\n');
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function requiredNames(schema: Record<string, unknown>): Set<string> {
  return new Set(Array.isArray(schema['required']) ? schema['required'].filter((name): name is string => typeof name === 'string') : []);
}

function union(members: readonly string[]): string {
  return [...new Set(members)].join(' | ');
}
