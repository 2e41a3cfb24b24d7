/** A Markdown fence that may wrap calls: Hermes 2 Pro models write ```` ```xml\n<tool_call>…</tool_call>\n``` ````, one call or several. */
// llama.cpp's Hermes 2 Pro parser reads such a call and leaves no fence in the content
// (tests/test-chat.cpp). The fence is markup only when it holds nothing but calls: the calls are
// held until its closer comes (then opener, closer and the whitespace between go), and anything
// else in it gives the fence back to the text, byte for byte. A bare ```` ``` ```` may as well
// close the code block before a call as open one, so only its own closer confirms it; an opener
// with an info string (```` ```xml ````) cannot close anything, so the reply's end closes it too.
import type { ParsedEvent } from '../../src/core/index.js';

export const fenceCloser = '```';

/** The text marker of a fence opener, e.g. ```` ```xml\n ````. */
export type FenceMarker = { type: 'fence'; opensOnly: boolean };

export function fenceMarker(opener: string): FenceMarker {
  return { type: 'fence', opensOnly: opener.trim() !== fenceCloser };
}

export class FenceFrame {
  /** Whitespace after the last call read, before the closer or the next call: dropped with the fence, else text. */
  gap = '';
  /** The call events read inside, in order. */
  readonly calls: ParsedEvent[] = [];
  /** The calls and the whitespace between them, as written: what the fence held, should it be text after all. */
  private readonly content: ParsedEvent[] = [];
  /** Whether calls were read (the parser now looks for the closer or another call). */
  afterCalls = false;

  constructor(
    /** The opener and the whitespace after it, as written. */
    public prefix: string,
    private readonly opensOnly: boolean,
  ) {}

  /**
   * A call (or a rejection) read inside. Several calls in one fence are one block of calls: the
   * whitespace between them is layout, dropped with the fence. (llama.cpp's Hermes 2 Pro parser wants
   * the closer right after the first call and gives the whole reply back as content otherwise; a model
   * that writes its parallel calls in one fence means every one of them.)
   */
  addCalls(events: readonly ParsedEvent[]): void {
    if (this.gap !== '') this.content.push({ type: 'text', text: this.gap });
    this.gap = '';
    this.content.push(...events);
    this.calls.push(...events);
    this.afterCalls = true;
  }

  /** The events of a fence that turned out to be text around (or without) its calls. */
  asText(): ParsedEvent[] {
    return [{ type: 'text', text: this.prefix }, ...this.content, { type: 'text', text: this.gap }];
  }

  /** The events when the reply ends inside the fence, after its calls or before any: the end closes it as its closer would. */
  atReplyEnd(): ParsedEvent[] {
    return this.afterCalls && this.opensOnly ? this.calls : this.asText();
  }
}
