/** A reasoning tag with the matcher of its end markers, built once per catalogue and shared by every reader of the tag. */
import type { ReasoningTag } from './envelope.js';
import { MarkerMatcher } from './marker-matcher.js';

/** How a reasoning block ends: at its close tag (consumed) or before one of its `endsBefore` markers (kept). */
export type ReasoningEnd = 'close' | 'before';

export type ReasoningSyntax = {
  tag: ReasoningTag;
  /** The close tag and the `endsBefore` markers. */
  ends: MarkerMatcher<ReasoningEnd>;
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
      };
      syntaxes.set(tag, syntax);
    }
    return syntax;
  };
}
