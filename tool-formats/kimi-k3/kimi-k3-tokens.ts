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
  return value.replace(/&quot;/g, '"').replace(/&amp;/g, '&');
}

/** `name="value"` pairs of a tag header (the text between the tag name and `<|sep|>`). */
export function readAttributes(header: string): Map<string, string> {
  return new Map([...header.matchAll(/([\w-]+)="([^"]*)"/g)].map((match) => [match[1] as string, unescapeAttribute(match[2] as string)]));
}
