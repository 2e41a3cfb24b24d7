/** JSON with Python's json.dumps spacing (", " and ": "), as chat templates print tools and calls. */
// So prompts look like what the models saw in training. Deterministic: key order is kept.
export function formatJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((item) => formatJson(item === undefined ? null : item)).join(', ')}]`;
  if (typeof value === 'object' && value !== null) {
    const members = Object.entries(value as Record<string, unknown>)
      .filter(([, member]) => member !== undefined)
      .map(([key, member]) => `${JSON.stringify(key)}: ${formatJson(member)}`);
    return `{${members.join(', ')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** Parses call arguments (JSON text) for rendering; text that is not JSON is kept as a string. */
export function argumentsForRendering(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * Call arguments (JSON text) as key and value-text pairs, the way XML-ish families write them between
 * tags: strings as they are, every other value as JSON. Arguments that are not an object have no pairs.
 */
export function rawArgumentEntries(text: string): [string, string][] {
  const value = argumentsForRendering(text);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return [];
  return Object.entries(value as Record<string, unknown>).map(([key, member]) => [key, typeof member === 'string' ? member : formatJson(member)]);
}
