/**
 * Which of an upstream's tokens are a piece of text's. Servers that report the log probabilities of every
 * token they generated (Ollama's `/api/chat`, whose list mixes thinking, content and tool-call markup) leave
 * the gateway to find the content's own tokens: a run of whole tokens whose bytes are the text's UTF-8.
 */
import type { TokenLogprob } from '../src/core/token-logprob.js';

/** A token's bytes: those the upstream sent, else its text's UTF-8. */
function bytesOf(token: TokenLogprob): Buffer {
  return token.bytes ? Buffer.from(token.bytes) : Buffer.from(token.token, 'utf8');
}

function spells(run: readonly TokenLogprob[], text: Buffer): boolean {
  let offset = 0;
  for (const token of run) {
    const bytes = bytesOf(token);
    if (!bytes.equals(text.subarray(offset, offset + bytes.length))) return false;
    offset += bytes.length;
  }
  return offset === text.length;
}

/**
 * The last run of `tokens` that spells `text` exactly (the content follows thinking and its markup), or
 * undefined when none does: the text was rewritten (trimmed, parsed) and no token can honestly be paired
 * with it. Lengths are compared first (two pointers over the tokens' byte lengths), bytes only where they fit.
 */
export function tokensSpellingText(tokens: readonly TokenLogprob[], text: string): TokenLogprob[] | undefined {
  const target = Buffer.from(text, 'utf8');
  if (target.length === 0) return undefined;
  const lengths = tokens.map((token) => bytesOf(token).length);
  let end = tokens.length;
  let start = end;
  let length = 0;
  while (end > 0) {
    while (start > 0 && length < target.length) length += lengths[--start] as number;
    if (length < target.length) return undefined;
    if (length === target.length) {
      const run = tokens.slice(start, end);
      if (spells(run, target)) return run;
    }
    length -= lengths[--end] as number;
  }
  return undefined;
}
