/**
 * A PDF as Converse takes one: a `document` block with its bytes, its `format` and a `name`
 * (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_DocumentBlock.html). The name may hold only
 * "alphanumeric characters, whitespace characters (no more than one in a row), hyphens, parentheses, square
 * brackets", and two documents of one name fail the request ("Messages can't contain duplicate document names",
 * quoted in maximhq/bifrost#7003): a file's name is cut down to those characters, and made unique per request.
 */
import type { ContentBlock, DocumentBlock, Message as ConverseMessage } from '@aws-sdk/client-bedrock-runtime';
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

/** Converse's limit: "You can't include more than 5 documents in a request." (aws-samples/generative-ai-use-cases#1685). */
const documentsPerRequest = 5;

/**
 * A long agent session gathers more PDFs than Converse takes in one request, which would fail every turn after:
 * the earliest go, each replaced by a line saying so (the turn and the tool result keep their shape), the latest
 * five stay. `sent` is how many documents the request holds (the names given); nothing is walked below the limit.
 */
export function capDocuments(messages: readonly ConverseMessage[], sent: number, warnings: Warning[]): void {
  let excess = sent - documentsPerRequest;
  if (excess <= 0) return;
  const leftOut = (document: DocumentBlock): { text: string } => {
    excess--;
    warnings.push({
      code: 'unsupported-content',
      message: `Bedrock: the document '${document.name ?? ''}' was left out; Converse takes at most ${documentsPerRequest} documents in a request, and the latest are kept.`,
    });
    return { text: `[The document '${document.name ?? ''}' was left out: at most ${documentsPerRequest} documents fit in a request.]` };
  };
  for (const message of messages) {
    message.content = (message.content ?? []).map((block): ContentBlock => {
      if (excess > 0 && block.document) return leftOut(block.document);
      if (excess <= 0 || !block.toolResult?.content?.some((part) => part.document)) return block;
      const content = block.toolResult.content.map((part) => (excess > 0 && part.document ? leftOut(part.document) : part));
      return { toolResult: { ...block.toolResult, content } };
    });
    if (excess <= 0) return;
  }
}

/**
 * Converse refuses a turn holding a document and no text ("A text block must be included when using documents.",
 * BerriAI/litellm#36499: a Claude Code PDF sent alone): such a turn gets a line naming its documents.
 */
export function withDocumentText(message: ConverseMessage): void {
  const content = message.content ?? [];
  const names = content.flatMap((block) => (block.document ? [block.document.name ?? ''] : []));
  if (names.length === 0 || content.some((block) => block.text !== undefined && block.text.trim() !== '')) return;
  message.content = [...content, { text: `(attached: ${names.join(', ')})` }];
}
