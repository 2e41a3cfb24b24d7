/**
 * A PDF as Converse takes one: a `document` block with its bytes, its `format` and a `name`
 * (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_DocumentBlock.html). The name may hold only
 * "alphanumeric characters, whitespace characters (no more than one in a row), hyphens, parentheses, square
 * brackets", and two documents of one name fail the request ("Messages can't contain duplicate document names",
 * quoted in maximhq/bifrost#7003): a file's name is cut down to those characters, and made unique per request.
 */
import type { DocumentBlock } from '@aws-sdk/client-bedrock-runtime';
import { inlineFileData } from '../../src/core/inline-file-data.js';
import type { FilePart } from '../../src/core/message.js';
import type { Warning } from '../../src/core/warning.js';

/** The names given so far in one request (made by the request's conversion, never shared). */
export type DocumentNames = Set<string>;

/** `report_2025.final.pdf` → `report 2025 final`; a name with nothing left is `document`. */
function nameOf(filename: string | undefined): string {
  const base = (filename ?? '').replace(/\.[a-z0-9]{1,5}$/i, '');
  const cleaned = base
    .replace(/[_.]/g, ' ')
    .replace(/[^a-zA-Z0-9\s\-()[\]]/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 190)
    .trim();
  return cleaned === '' ? 'document' : cleaned;
}

function uniqueName(filename: string | undefined, names: DocumentNames): string {
  const base = nameOf(filename);
  let name = base;
  for (let count = 2; names.has(name); count++) name = `${base} (${count})`;
  names.add(name);
  return name;
}

/** Whether the part is a PDF (Converse's other formats are Office, CSV, HTML, text: no client sends those as files here). */
export function isPdf(part: FilePart): boolean {
  return part.mediaType.toLowerCase() === 'application/pdf';
}

/** The PDF's document block, or undefined with a warning when its bytes are not inline (Converse takes no URL). */
export function converseDocument(part: FilePart, names: DocumentNames, warnings: Warning[]): DocumentBlock | undefined {
  const data = inlineFileData(part);
  if (data.type === 'inline')
    return { format: 'pdf', name: uniqueName(part.filename, names), source: { bytes: Buffer.from(data.base64, 'base64') } };
  const why = data.type === 'url' ? 'Converse takes documents inline only (base64 or a data: URL)' : data.reason;
  warnings.push({ code: 'unsupported-content', message: `Bedrock: a ${part.mediaType} part was left out (${why}).` });
  return undefined;
}
