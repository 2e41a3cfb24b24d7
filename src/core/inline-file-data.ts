/** Where a file part's bytes are: inline (a `data:` URL or bare base64, as base64 text), or behind a URL. */
import type { FilePart } from './message.js';

export type InlineFileData =
  { type: 'inline'; mediaType: string; base64: string } | { type: 'url'; url: string } | { type: 'malformed'; reason: string };

/** Base64 text never contains `:`, so anything that starts like a URL scheme is a URL. */
const urlScheme = /^[a-z][a-z0-9+.-]*:/i;

/**
 * Reads `part.data` (https://www.rfc-editor.org/rfc/rfc2397 for `data:` URLs). Upstreams that take raw
 * bytes must not decode a data URL as base64 whole: the header's `:`, `;` and `,` would be skipped and
 * the rest decoded into garbage bytes. The media type of a data URL's header wins over the part's own
 * (a Chat Completions `image_url` part has only `image/*` when its URL has no header).
 */
export function inlineFileData(part: FilePart): InlineFileData {
  const data = part.data.trim();
  if (!data.toLowerCase().startsWith('data:')) {
    if (urlScheme.test(data)) return { type: 'url', url: data };
    return { type: 'inline', mediaType: part.mediaType, base64: data };
  }
  const comma = data.indexOf(',');
  if (comma === -1) return { type: 'malformed', reason: 'a malformed data: URL' };
  const [mediaType = '', ...parameters] = data.slice('data:'.length, comma).split(';');
  const payload = data.slice(comma + 1);
  const resolvedType = mediaType || part.mediaType;
  if (parameters.some((parameter) => parameter.toLowerCase() === 'base64'))
    return { type: 'inline', mediaType: resolvedType, base64: payload };
  // Percent-encoded data URLs (SVG, mostly) carry the bytes as text.
  try {
    return { type: 'inline', mediaType: resolvedType, base64: Buffer.from(decodeURIComponent(payload), 'utf8').toString('base64') };
  } catch {
    return { type: 'malformed', reason: 'a malformed data: URL' };
  }
}
