/** Turns a neutral file part into the bare base64 text Ollama expects in `images`, or says why it cannot. */
import type { FilePart } from '../../src/core/index.js';
import { inlineFileData } from '../../src/core/inline-file-data.js';

export type OllamaImageConversion = { type: 'image'; base64: string } | { type: 'unsupported'; reason: string };

export function convertToOllamaImage(part: FilePart): OllamaImageConversion {
  if (!part.mediaType.toLowerCase().startsWith('image/')) {
    return { type: 'unsupported', reason: `file parts of type '${part.mediaType}' were dropped (only images are accepted)` };
  }
  const data = inlineFileData(part);
  switch (data.type) {
    case 'inline':
      return { type: 'image', base64: data.base64 };
    case 'url':
      // Ollama only takes inline image bytes; fetching URLs on the client's behalf is not this gateway's job.
      return { type: 'unsupported', reason: 'image URLs were dropped (send images inline as base64 or data: URLs)' };
    case 'malformed':
      return { type: 'unsupported', reason: `${data.reason} was dropped` };
  }
}
