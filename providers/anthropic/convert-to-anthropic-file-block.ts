/** Converts a neutral file part into an Anthropic `image` or `document` block. */
import type { FilePart, Warning } from '../../src/core/index.js';
import type { AnthropicBase64Source, AnthropicDocumentBlock, AnthropicImageBlock, AnthropicUrlSource } from './anthropic-messages-body.js';

const dataUrlPattern = /^data:([^;,]*)((?:;[^;,]*)*),(.*)$/s;

/** Reads `data:` URLs (base64 or percent-encoded), http(s) URLs, or bare base64 text. */
function toSource(part: FilePart): { source: AnthropicBase64Source | AnthropicUrlSource; mediaType: string } {
  if (/^https?:\/\//i.test(part.data)) return { source: { type: 'url', url: part.data }, mediaType: part.mediaType };
  const match = dataUrlPattern.exec(part.data);
  if (!match) return { source: { type: 'base64', media_type: part.mediaType, data: part.data }, mediaType: part.mediaType };
  const mediaType = match[1] || part.mediaType;
  const isBase64 = (match[2] ?? '').split(';').includes('base64');
  const payload = match[3] ?? '';
  const data = isBase64 ? payload : Buffer.from(decodeURIComponent(payload), 'utf8').toString('base64');
  return { source: { type: 'base64', media_type: mediaType, data }, mediaType };
}

/** What the host takes of files: Claude on Vertex AI takes no URL source. */
export type FileSourceOptions = { urlSources: boolean };

/**
 * Anthropic takes images (jpeg/png/gif/webp) and PDF documents
 * (https://docs.anthropic.com/en/docs/build-with-claude/vision, …/pdf-support); anything else
 * (audio, arbitrary files) has no block, so it is dropped with a warning rather than failing the request.
 * Vertex AI refuses a URL source for the whole request ("…source.base64.data: URL sources are not supported",
 * BerriAI/litellm#18430; langchain-ai/langchain-google#1088): there such a file is left out with a warning, as
 * Bedrock's Converse, which takes no URL either, does.
 */
export function convertToAnthropicFileBlock(
  part: FilePart,
  warnings: Warning[],
  options: FileSourceOptions = { urlSources: true },
): AnthropicImageBlock | AnthropicDocumentBlock | undefined {
  const { source, mediaType } = toSource(part);
  if (source.type === 'url' && !options.urlSources) {
    warnings.push({
      code: 'unsupported-content',
      message: `A file given by URL (${mediaType}) cannot be sent to Claude on this host, which takes files inline only (base64 or a data: URL); it was left out.`,
    });
    return undefined;
  }
  const normalized = mediaType.toLowerCase();
  if (normalized.startsWith('image/')) return { type: 'image', source };
  if (normalized === 'application/pdf') {
    const block: AnthropicDocumentBlock = { type: 'document', source };
    if (part.filename) block.title = part.filename;
    return block;
  }
  warnings.push({
    code: 'unsupported-content',
    message: `A file of type '${mediaType}' cannot be sent to Anthropic (images and PDF only); it was left out.`,
  });
  return undefined;
}
