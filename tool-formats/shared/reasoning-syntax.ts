/** A reasoning tag with the matcher of its end markers, built once per catalogue and shared by every reader of the tag. */
import type { ReasoningTag } from './envelope.js';
import { MarkerMatcher } from './marker-matcher.js';

/** How a reasoning block ends: at its close tag (consumed) or before one of its `endsBefore` markers (kept). */
export type ReasoningEnd = 'close' | 'before';

export type ReasoningSyntax = {
  tag: ReasoningTag;
  /** The close tag and the `endsBefore` markers. */
  ends: MarkerMatcher<ReasoningEnd>;
  /** The close tag is the only end marker (searched with `indexOf`, without the matcher). */
  plainClose: boolean;
};

/**
 * One `ReasoningSyntax` per tag, made on first request. The catalogue holds one of these so that a tag
 * shared by many families (`<think>`) gets one matcher, without a module-level cache.
 */
export function createReasoningSyntaxes(): (tag: ReasoningTag) => ReasoningSyntax {
  const syntaxes = new Map<ReasoningTag, ReasoningSyntax>();
  return (tag) => {
    let syntax = syntaxes.get(tag);
    if (syntax === undefined) {
      syntax = {
        tag,
        ends: new MarkerMatcher<ReasoningEnd>([
          { marker: tag.close, value: 'close' },
          ...(tag.endsBefore ?? []).map((marker) => ({ marker, value: 'before' as const })),
        ]),
        plainClose: (tag.endsBefore ?? []).length === 0,
      };
      syntaxes.set(tag, syntax);
    }
    return syntax;
  };
}

/**
 * The block a reply begins inside (`startsInReasoning`): the family's first reasoning tag, ended by the
 * close of any of its tags, since the template opened the block without saying which spelling the
 * model will close it with (Kimi-VL's `◁/think▷` beside `</think>`, Granite's `Here's my response:`).
 */
export function openedReasoningSyntax(
  tags: readonly ReasoningTag[],
  syntaxOf: (tag: ReasoningTag) => ReasoningSyntax,
  fallback: ReasoningTag,
): ReasoningSyntax {
  const first = syntaxOf(tags[0] ?? fallback);
  const otherCloses = [...new Set(tags.slice(1).map((tag) => tag.close))].filter((close) => close !== first.tag.close);
  if (otherCloses.length === 0) return first;
  return {
    tag: first.tag,
    ends: new MarkerMatcher<ReasoningEnd>([
      { marker: first.tag.close, value: 'close' },
      ...otherCloses.map((marker) => ({ marker, value: 'close' as const })),
      ...(first.tag.endsBefore ?? []).map((marker) => ({ marker, value: 'before' as const })),
    ]),
    plainClose: false,
  };
}
