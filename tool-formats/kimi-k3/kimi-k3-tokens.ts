/** Kimi K3's XTML markup: `<|open|>TAG attr="…"<|sep|>` … `<|close|>TAG<|sep|>`, attribute values escaped (`&amp;`, `&quot;`). */
// @see https://github.com/ggml-org/llama.cpp/blob/master/models/templates/Kimi-K3.jinja

export const open = '<|open|>';
export const close = '<|close|>';
export const separator = '<|sep|>';
export const endOfMessage = '<|end_of_msg|>';

export const openTag = (tag: string) => `${open}${tag}${separator}`;
export const closeTag = (tag: string) => `${close}${tag}${separator}`;

/** An opening tag with attributes, escaped as the template's `escape_attr` does. */
export function openTagWith(tag: string, attributes: readonly (readonly [string, string | number])[]): string {
  return `${open}${tag}${attributes.map(([name, value]) => ` ${name}="${escapeAttribute(String(value))}"`).join('')}${separator}`;
}

export function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
}

export function unescapeAttribute(value: string): string {
  // Most values hold no entity: returned as they are, without two regex passes.
  if (!value.includes('&')) return value;
  return value.replace(/&quot;/g, '"').replace(/&amp;/g, '&');
}

/**
 * `name="value"` pairs of a tag header (the text between the tag name and `<|sep|>`): what
 * `/([\w-]+)="([^"]*)"/g` matches, read by hand because every call of every Kimi K3 reply reads two
 * headers, and `matchAll` copies the pattern and builds an iterator each time.
 */
export function readAttributes(header: string): Map<string, string> {
  const attributes = new Map<string, string>();
  for (let equals = header.indexOf('="'); equals >= 0;) {
    let nameStart = equals;
    while (nameStart > 0 && isNameCode(header.charCodeAt(nameStart - 1))) nameStart--;
    const valueStart = equals + 2;
    if (nameStart === equals) {
      // No name before this `="`: its quote may still close nothing, so the search goes on after `=`.
      equals = header.indexOf('="', equals + 1);
      continue;
    }
    const valueEnd = header.indexOf('"', valueStart);
    if (valueEnd < 0) break;
    attributes.set(header.slice(nameStart, equals), unescapeAttribute(header.slice(valueStart, valueEnd)));
    equals = header.indexOf('="', valueEnd + 1);
  }
  return attributes;
}

/** `[\w-]`: ASCII letters, digits, `_` and `-`. */
function isNameCode(code: number): boolean {
  return (
    (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a) || (code >= 0x30 && code <= 0x39) || code === 0x5f || code === 0x2d
  );
}
