/** Turns a neutral file part into the bare base64 text Ollama expects in `images`, or says why it cannot. */
import type { FilePart } from '../../src/core/index.js';

export type OllamaImageConversion = { type: 'image'; base64: string } | { type: 'unsupported'; reason: string };

/** Base64 text never contains `:`, so anything that starts like a URL scheme is a URL. */
const urlScheme = /^[a-z][a-z0-9+.-]*:/i;

export function convertToOllamaImage(part: FilePart): OllamaImageConversion {
  if (!part.mediaType.toLowerCase().startsWith('image/')) {
    return { type: 'unsupported', reason: `file parts of type '${part.mediaType}' were dropped (only images are accepted)` };
  }
  const data = part.data.trim();
  if (data.toLowerCase().startsWith('data:')) return decodeDataUrl(data);
  if (urlScheme.test(data)) {
    // Ollama only takes inline image bytes; fetching URLs on the client's behalf is not this gateway's job.
    return { type: 'unsupported', reason: 'image URLs were dropped (send images inline as base64 or data: URLs)' };
  }
  return { type: 'image', base64: data };
}

function decodeDataUrl(url: string): OllamaImageConversion {
  const comma = url.indexOf(',');
  if (comma === -1) return { type: 'unsupported', reason: 'a malformed data: URL was dropped' };
  const header = url.slice(0, comma).toLowerCase();
  const payload = url.slice(comma + 1);
  if (header.endsWith(';base64')) return { type: 'image', base64: payload };
  // Percent-encoded data URLs (SVG, mostly) carry the bytes as text.
  try {
    return { type: 'image', base64: Buffer.from(decodeURIComponent(payload), 'utf8').toString('base64') };
  } catch {
    return { type: 'unsupported', reason: 'a malformed data: URL was dropped' };
  }
}
