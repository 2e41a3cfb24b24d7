/** Content of Responses input messages and tool outputs (`input_text`, `input_image`, `input_file`, …) → neutral parts. */
import { joinToolResultParts } from '../../src/core/join-tool-result-parts.js';
import { gatewayError, invalidRequest } from '../../src/core/gateway-error.js';
import type { FilePart, TextPart } from '../../src/core/message.js';
import type { Warning } from '../../src/core/warning.js';
import type { WireContentPart } from './responses-request-schema.js';

function mediaTypeOf(data: string, filename: string | undefined, fallback: string): string {
  const dataUrl = /^data:([^;,]+)/.exec(data);
  if (dataUrl?.[1]) return dataUrl[1];
  if (filename && /\.pdf$/i.test(filename)) return 'application/pdf';
  return fallback;
}

function uploadedFileError(param: string): never {
  throw gatewayError('unsupported_value', {
    message: `'${param}.file_id' refers to an uploaded file; this gateway has no file store, send the data inline instead.`,
    param: `${param}.file_id`,
  });
}

function imagePart(part: WireContentPart, param: string): FilePart {
  const url = part.image_url;
  if (typeof url !== 'string') {
    if (typeof part.file_id === 'string') uploadedFileError(param);
    throw invalidRequest(`Missing required parameter: '${param}.image_url'.`, `${param}.image_url`);
  }
  const file: FilePart = { type: 'file', mediaType: mediaTypeOf(url, undefined, 'image/*'), data: url };
  if (typeof part.detail === 'string') file.detail = part.detail;
  return file;
}

function filePart(part: WireContentPart, param: string): FilePart {
  const filename = typeof part.filename === 'string' ? part.filename : undefined;
  const data = typeof part.file_data === 'string' ? part.file_data : typeof part.file_url === 'string' ? part.file_url : undefined;
  if (data === undefined) {
    if (typeof part.file_id === 'string') uploadedFileError(param);
    throw invalidRequest(`'${param}' needs file_data or file_url.`, `${param}.file_data`);
  }
  const file: FilePart = { type: 'file', mediaType: mediaTypeOf(data, filename, 'application/octet-stream'), data };
  if (filename !== undefined) file.filename = filename;
  return file;
}

function textOfPart(part: WireContentPart): string | undefined {
  switch (part.type) {
    case 'input_text':
    case 'output_text':
    case 'text':
      return typeof part.text === 'string' ? part.text : undefined;
    case 'refusal':
      return typeof part.refusal === 'string' ? part.refusal : undefined;
    default:
      return undefined;
  }
}

/** A user message's content: text, images and files. */
export function parseUserContent(content: string | WireContentPart[], param: string): (TextPart | FilePart)[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return content.map((part, index): TextPart | FilePart => {
    const partParam = `${param}[${index}]`;
    if (part.type === 'input_image') return imagePart(part, partParam);
    if (part.type === 'input_file') return filePart(part, partParam);
    const text = textOfPart(part);
    if (text === undefined)
      throw gatewayError('unsupported_value', {
        message: `Content part type '${part.type}' is not supported here.`,
        param: `${partParam}.type`,
      });
    return { type: 'text', text };
  });
}

/** System, developer and assistant content: text only (their parts are joined, as OpenAI reads them). */
export function parseTextContent(content: string | WireContentPart[], param: string): string {
  if (typeof content === 'string') return content;
  return content
    .map((part, index) => {
      const text = textOfPart(part);
      if (text === undefined)
        throw gatewayError('unsupported_value', {
          message: `Content part type '${part.type}' is not allowed in this message.`,
          param: `${param}[${index}].type`,
        });
      return text;
    })
    .join('');
}

/** Images and files that carry their data (an uploaded file's id means nothing to another provider). */
function isInlineImage(part: WireContentPart): boolean {
  return part.type === 'input_image' && typeof part.image_url === 'string';
}

function isInlineFile(part: WireContentPart): boolean {
  return part.type === 'input_file' && (typeof part.file_data === 'string' || typeof part.file_url === 'string');
}

/** A tool's output: its text, and the images and files it returned, which a neutral tool result cannot hold. */
export type ToolOutput = { text: string; files: FilePart[] };

/**
 * A tool's output (Codex's `view_image` and MCP screenshots answer with `input_image` parts). Neutral tool
 * results are text only, so images and files are returned apart, for the conversation to send as user
 * content; other parts (an uploaded file's id) are dropped with a warning rather than failing an agent's
 * whole turn.
 */
export function parseToolOutput(output: string | WireContentPart[], param: string, warnings: Warning[]): ToolOutput {
  if (typeof output === 'string') return { text: output, files: [] };
  const texts: string[] = [];
  const files: FilePart[] = [];
  for (const [index, part] of output.entries()) {
    const partParam = `${param}[${index}]`;
    const text = textOfPart(part);
    if (text !== undefined) texts.push(text);
    else if (isInlineImage(part)) files.push(imagePart(part, partParam));
    else if (isInlineFile(part)) files.push(filePart(part, partParam));
    else
      warnings.push({
        code: 'unsupported-content',
        message: `'${partParam}' (${part.type}) cannot be sent as a tool result and was dropped.`,
      });
  }
  return { text: joinToolResultParts(texts), files };
}
