/**
 * The content's tokens among those Ollama reports. `/api/chat` (server/routes.go, ChatHandler) sends the
 * log probabilities of every generated token with the chunk that generated it: thinking and tool-call
 * markup included, and with an empty message while its parser holds text back (a possible tool-call tag,
 * `</think>`, harmony's channel headers), whose tokens then precede the chunk that releases the text. The
 * whole reply (`stream: false`) carries all of them in one list. So the tokens are held until text arrives,
 * and content keeps the last run of them that spells it byte for byte; tokens that went with thinking or
 * calls are not content. Content that no run spells (its parser trimmed or rewrote it) goes out without
 * tokens, and the reply says so in a `logprobs-partial` warning.
 */
import { appendTokens, logprobsPartialCode, type TokenLogprob, type Warning } from '../../src/core/index.js';
import { tokensSpellingText } from '../tokens-spelling-text.js';

export const ollamaLogprobsPartialWarning: Warning = {
  code: logprobsPartialCode,
  message:
    "Log probabilities are missing for part of the content: Ollama's parser changed the text its tokens spell (trimmed or rewrote it), so those tokens could not be paired with it.",
};

export class OllamaContentLogprobs {
  private pending: TokenLogprob[] | undefined;
  /** Some content went out without tokens. */
  private unpaired = false;

  /**
   * One chunk's tokens and what it carried; returns the content's tokens. `otherOutput`: the chunk carried
   * thinking or tool calls (whose tokens, with any held before, are not content when no content follows).
   */
  read(tokens: readonly TokenLogprob[] | undefined, content: string, otherOutput: boolean): TokenLogprob[] | undefined {
    if (tokens) this.pending = appendTokens(this.pending, tokens);
    if (content === '') {
      if (otherOutput) this.pending = undefined;
      return undefined;
    }
    const run = this.pending ? tokensSpellingText(this.pending, content) : undefined;
    if (!run) this.unpaired = true;
    this.pending = undefined;
    return run;
  }

  /** The warning for the reply's end, if some content went without its tokens. */
  warning(): Warning | undefined {
    return this.unpaired ? ollamaLogprobsPartialWarning : undefined;
  }
}
