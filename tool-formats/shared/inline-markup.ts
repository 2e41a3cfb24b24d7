/** Markup inside text and reasoning that a family's parser drops, keeping what it wraps (Cohere's citation tags). */
// Not a marker of the reply parser: it may sit anywhere, reasoning included, and is not one fixed
// string. It is removed from the parser's text and reasoning events as they stream, holding back only
// a possible partial tag at the end of a run; so the events stay the same for any chunking (each run of
// text or reasoning is read as one stream, and a run ends only where the parser's own events change kind).
import type { ParsedEvent, ToolCallParser } from '../../src/core/index.js';

/** Where markup begins at or after `from`: whole (`end` after it), possibly (the text ends inside it), or nowhere. */
export type InlineMarkupMatch = { type: 'found'; start: number; end: number } | { type: 'partial'; start: number } | { type: 'none' };

export type InlineMarkup = {
  find(text: string, from: number): InlineMarkupMatch;
};

type RunKind = 'text' | 'reasoning';

export function withInlineMarkupRemoved(parser: ToolCallParser, markup: InlineMarkup): ToolCallParser {
  let held = '';
  let heldKind: RunKind = 'text';
  const flush = (out: ParsedEvent[]) => {
    if (held !== '') out.push({ type: heldKind, text: held });
    held = '';
  };
  /** `first` is `find(text, 0)`, already known. */
  const strip = (out: ParsedEvent[], text: string, first: InlineMarkupMatch) => {
    let kept = '';
    let position = 0;
    for (let match = first; ; match = markup.find(text, position)) {
      if (match.type === 'found') {
        kept += text.slice(position, match.start);
        position = match.end;
        continue;
      }
      const end = match.type === 'partial' ? match.start : text.length;
      kept += text.slice(position, end);
      held = text.slice(end);
      break;
    }
    if (kept !== '') out.push({ type: heldKind, text: kept });
  };
  const filter = (events: readonly ParsedEvent[], out: ParsedEvent[]): ParsedEvent[] => {
    for (const event of events) {
      if (event.type !== 'text' && event.type !== 'reasoning') {
        flush(out);
        out.push(event);
      } else if (event.text !== '') {
        if (event.type !== heldKind) flush(out);
        heldKind = event.type;
        const text = held + event.text;
        const first = markup.find(text, 0);
        // Most runs hold no markup at all: passed on as they are.
        if (first.type === 'none') {
          out.push(held === '' ? event : { type: heldKind, text });
          held = '';
        } else strip(out, text, first);
      }
    }
    return out;
  };
  return {
    push: (text) => {
      const events = parser.push(text);
      return events.length === 0 ? events : filter(events, []);
    },
    finish: () => {
      const out = filter(parser.finish(), []);
      flush(out);
      return out;
    },
  };
}
