/**
 * A JSON value with every string in it (object keys included) passed through `redact`, rebuilt from its
 * JSON text by `JSON.parse`'s reviver. Why not replace in the serialised text and parse that: a secret
 * holding `\` or `"` can match across an escape there (`12345678\` in the text `12345678\"`), and the
 * replaced text is then no JSON at all; string by string, nothing can break.
 */
export function redactJsonStrings(value: unknown, redact: (text: string) => string): unknown {
  if (value === undefined || value === null) return value;
  if (typeof value === 'string') return redact(value);
  let changed = false;
  const redactText = (text: string): string => {
    const redacted = redact(text);
    if (redacted !== text) changed = true;
    return redacted;
  };
  try {
    const json = JSON.stringify(value);
    if (json === undefined) return value;
    const rebuilt: unknown = JSON.parse(json, (_key: string, item: unknown): unknown => {
      if (typeof item === 'string') return redactText(item);
      if (item === null || typeof item !== 'object' || Array.isArray(item)) return item;
      return redactKeys(item as Record<string, unknown>, redactText);
    });
    return changed ? rebuilt : value;
  } catch {
    // Not serialisable (a cycle, a BigInt, nesting too deep): nothing of it can be shown safely.
    return undefined;
  }
}

/** The object itself when no key holds a secret (the common case), else a copy with its keys redacted. */
function redactKeys(object: Record<string, unknown>, redact: (text: string) => string): Record<string, unknown> {
  const entries = Object.entries(object);
  const redacted = entries.map(([key, item]): [string, unknown] => [redact(key), item]);
  if (redacted.every(([key], index) => key === entries[index]?.[0])) return object;
  // fromEntries defines each key as its own property, as JSON.parse does (`__proto__` too).
  return Object.fromEntries(redacted);
}
