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

/** `matchAll` works on a copy, so this shared pattern's `lastIndex` never changes. */
const attributePattern = /([\w-]+)="([^"]*)"/g;

/** `name="value"` pairs of a tag header (the text between the tag name and `<|sep|>`). */
export function readAttributes(header: string): Map<string, string> {
  const attributes = new Map<string, string>();
  for (const match of header.matchAll(attributePattern)) attributes.set(match[1] as string, unescapeAttribute(match[2] as string));
  return attributes;
}
