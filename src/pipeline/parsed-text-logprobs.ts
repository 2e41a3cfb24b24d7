/**
 * Log probabilities through a family parser (the prompted lane, and a native server's text it reads for
 * markup): the upstream's text deltas carry their tokens, and the parser's output is content, reasoning and
 * calls. A token maps back to content only where the parser passed the text through verbatim, and rides on the
 * content text that completes it (text held back as a possible partial tag keeps its tokens until it is
 * released, and a whole reply's one delta is split token by token). From the first place the output departs from the upstream's text (markup that became a call or
 * reasoning, a rejected call, anything rewritten) no token is returned: which of the later tokens are content
 * cannot be told from the parser's output, and returning them anyway would pair tokens with the wrong text.
 * One departure is known: the tag that closes reasoning (`</think>`, `[/THINK]`, `<|END_THINKING|>`) between
 * the reasoning and the text after it, which the parser removes and passes on what follows as written. Its
 * tokens (and one that runs past it into the text) are skipped, and the text's tokens are returned, so a reply
 * that opens in reasoning keeps its answer's. Whatever was not returned is said in a warning (`logprobs-partial`).
 */
import type { TokenLogprob } from '../core/token-logprob.js';
import type { StreamEvent } from '../core/stream-event.js';

/** One upstream delta: its text, its tokens, and how many of them (and of their bytes) were returned. */
type Received = { text: string; logprobs: TokenLogprob[] | undefined; returned: number; returnedBytes: number };

/** A reasoning close tag, one of the shapes families give it, with nothing else. */
const reasoningCloseTag = /^(?:<\/[^\s<>]{1,40}>|\[\/[A-Z_]{1,40}\]|<\|[A-Za-z_]{1,40}\|>)/;

/** A token's length in the reply's UTF-8 text: its bytes where the upstream sent them, else its text's. */
function byteLength(token: TokenLogprob): number {
  return token.bytes ? token.bytes.length : Buffer.byteLength(token.token, 'utf8');
}

export class ParsedTextLogprobs {
  /** The upstream's text not yet matched with the parser's output, delta by delta. */
  private readonly pending: Received[] = [];
  /** How much of the first pending delta the parser's output already matched, in characters and in UTF-8 bytes. */
  private offset = 0;
  private matchedBytes = 0;
  private diverged = false;
  /** Tokens were received after the output departed from the upstream's text. */
  private lostAfterDivergence = false;
  /** Tokens of a reasoning close tag were skipped. */
  private skippedTokens = false;
  /** The last output event matched was reasoning, so a close tag may come before the next text. */
  private inReasoning = false;

  /** An upstream text delta, before the parser reads it. */
  received(text: string, logprobs: TokenLogprob[] | undefined): void {
    if (!this.diverged) this.pending.push({ text, logprobs, returned: 0, returnedBytes: 0 });
    else if (logprobs) this.lostAfterDivergence = true;
  }

  /** Gives the text deltas the parser just produced (out[from…]) the tokens of the text they pass on. */
  attach(out: StreamEvent[], from: number): void {
    for (let position = from; position < out.length; position++) {
      const event = out[position] as StreamEvent;
      if (event.type === 'text-delta') {
        if (this.inReasoning) this.skipReasoningClose(event.delta);
        this.inReasoning = false;
        const logprobs = this.match(event.delta);
        if (logprobs) out[position] = { type: 'text-delta', delta: event.delta, logprobs };
      } else if (event.type === 'reasoning-delta') {
        // Reasoning is not content: its tokens are matched (to keep the place) but not returned.
        this.match(event.delta);
        this.inReasoning = true;
      }
    }
  }

  /** True when some tokens were not returned: the parser's output departed from the text, or kept some of it. */
  withheld(): boolean {
    return (
      this.skippedTokens ||
      this.lostAfterDivergence ||
      this.pending.some((received) => received.returned < (received.logprobs?.length ?? 0))
    );
  }

  /**
   * The text after reasoning: where the upstream's text goes on with a reasoning close tag and then `text`
   * as written, the tag is passed over, its tokens not returned (nor one that runs on into the text, which
   * would pair the tag's bytes with content). Anything else is left for `match`, which then diverges.
   */
  private skipReasoningClose(text: string): void {
    if (this.diverged || text === '') return;
    const upcoming = this.pending.map((received, index) => (index === 0 ? received.text.slice(this.offset) : received.text)).join('');
    const tag = reasoningCloseTag.exec(upcoming)?.[0];
    if (tag === undefined || upcoming.startsWith(text) || !upcoming.startsWith(text, tag.length)) return;
    let rest = tag.length;
    while (rest > 0) {
      const head = this.pending[0] as Received;
      const remaining = head.text.length - this.offset;
      if (rest < remaining) {
        this.matchedBytes += Buffer.byteLength(head.text.slice(this.offset, this.offset + rest), 'utf8');
        this.offset += rest;
        this.dropTokensBefore(head, this.matchedBytes);
        return;
      }
      this.dropTokensBefore(head, Infinity);
      rest -= remaining;
      this.pending.shift();
      this.offset = 0;
      this.matchedBytes = 0;
    }
  }

  /** Passes over the delta's tokens that begin before its first `bytes` bytes, returning none of them. */
  private dropTokensBefore(head: Received, bytes: number): void {
    const list = head.logprobs;
    if (!list) return;
    while (head.returned < list.length && head.returnedBytes < bytes) {
      head.returnedBytes += byteLength(list[head.returned] as TokenLogprob);
      head.returned++;
      this.skippedTokens = true;
    }
  }

  /**
   * The tokens `text` covers: a delta's remaining tokens once its text is all matched, and within a delta
   * (a whole reply is one) the tokens whose bytes lie in the matched part. A departure from the upstream's
   * text ends the matching.
   */
  private match(text: string): TokenLogprob[] | undefined {
    if (this.diverged) return undefined;
    let tokens: TokenLogprob[] | undefined;
    let rest = text;
    while (rest !== '') {
      const head = this.pending[0];
      if (!head) return this.diverge(tokens);
      const remaining = head.text.length - this.offset;
      if (rest.length < remaining) {
        if (!head.text.startsWith(rest, this.offset)) return this.diverge(tokens);
        this.offset += rest.length;
        this.matchedBytes += Buffer.byteLength(rest, 'utf8');
        return this.release(head, this.matchedBytes, tokens);
      }
      if (!rest.startsWith(head.text.slice(this.offset))) return this.diverge(tokens);
      tokens = this.release(head, Infinity, tokens);
      rest = rest.slice(remaining);
      this.pending.shift();
      this.offset = 0;
      this.matchedBytes = 0;
    }
    return tokens;
  }

  /** Appends the delta's tokens that end within its first `bytes` bytes. */
  private release(head: Received, bytes: number, tokens: TokenLogprob[] | undefined): TokenLogprob[] | undefined {
    const list = head.logprobs;
    if (!list) return tokens;
    let released = tokens;
    while (head.returned < list.length) {
      const next = list[head.returned] as TokenLogprob;
      const size = byteLength(next);
      if (head.returnedBytes + size > bytes) break;
      (released ??= []).push(next);
      head.returned++;
      head.returnedBytes += size;
    }
    return released;
  }

  private diverge(tokens: TokenLogprob[] | undefined): TokenLogprob[] | undefined {
    if (this.withheld()) this.lostAfterDivergence = true;
    this.diverged = true;
    this.pending.length = 0;
    return tokens;
  }
}
