/** Writes a call as Python source (`get_weather(city="Paris", days=3)`) that the pythonic reader reads back. */
import { isPlainObject } from './call-arguments.js';

/** Keywords cannot be argument names in Python, so such keys go through `**{…}`. */
const pythonKeywords = new Set(
  'False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield'.split(
    ' ',
  ),
);
const identifierPattern = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function formatPythonCall(name: string, callArguments: unknown): string {
  if (!isPlainObject(callArguments)) return `${name}()`;
  const keywords: string[] = [];
  const spread: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(callArguments)) {
    if (identifierPattern.test(key) && !pythonKeywords.has(key)) keywords.push(`${key}=${formatPythonValue(value)}`);
    else spread[key] = value;
  }
  if (Object.keys(spread).length > 0) keywords.push(`**${formatPythonValue(spread)}`);
  return `${name}(${keywords.join(', ')})`;
}

export function formatPythonValue(value: unknown): string {
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  // JSON string escapes are valid Python escapes.
  if (typeof value === 'string' || typeof value === 'number') return JSON.stringify(value) ?? 'None';
  if (Array.isArray(value)) return `[${value.map(formatPythonValue).join(', ')}]`;
  if (isPlainObject(value)) {
    return `{${Object.entries(value)
      .map(([key, member]) => `${JSON.stringify(key)}: ${formatPythonValue(member)}`)
      .join(', ')}}`;
  }
  return JSON.stringify(value) ?? 'None';
}
