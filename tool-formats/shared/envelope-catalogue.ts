/** The catalogue of every registered family's syntax, giving each family's parser all envelopes. */
// Its own come first (its grammars are tried first on a shared start marker), then the others'
// distinctive markers as fallbacks (see fallback-markers.ts).
import type { BodyGrammar } from './body-grammar.js';
import { thinkTag, type Envelope, type ReasoningTag } from './envelope.js';
import { mergeEntry, type EnvelopeEntry } from './envelope-entry.js';
import { visibleMarkers } from './fallback-markers.js';
import { fenceMarker, type FenceMarker } from './fence-frame.js';
import { MarkerMatcher, type MarkerEntry } from './marker-matcher.js';
import { createReasoningSyntaxes, openedReasoningSyntax, type ReasoningSyntax } from './reasoning-syntax.js';
import { unique } from './unique.js';

/** What a family contributes to parsing. */
export type FamilySyntax = {
  family: string;
  envelopes: readonly Envelope[];
  /** Grammars tried on bare JSON-ish replies (`{…}`, `[…]` at the start of the reply or after a call). */
  bareGrammars?: readonly BodyGrammar[];
  reasoningTags?: readonly ReasoningTag[];
  /** Special tokens removed from the text wherever they appear (Harmony's `<|start|>assistant`, a stray `<|eot_id|>`). */
  framingTokens?: readonly string[];
  /**
   * Framing removed only by the family's own parser: tags other models may write as text (Hunyuan's
   * `<answer>`), or phrases (Apriel's `[BEGIN FINAL RESPONSE]`).
   */
  familyFramingTokens?: readonly string[];
  /**
   * Syntax read only at the very start of a reply, and only by the family's own parser: the chat
   * template already wrote the first part of a header (Harmony's `<|start|>assistant`, so a reply may
   * begin ` to=functions.NAME<|channel|>…` or `analysis<|message|>…`).
   */
  replyStart?: ReplyStartSyntax;
  /**
   * A start marker the model's template ends its generation prompt with (Functionary v3.2's `>>>`): the
   * family's own parser reads the reply as if it followed that marker. Its scanner should decline text
   * that is no body.
   */
  replyStartsInside?: string;
  /**
   * Markdown fence openers (```` ```xml\n ````) the family's models wrap calls in, read by its own parser
   * only: a fence holding nothing but calls is dropped with them (see fence-frame.ts).
   */
  fences?: readonly string[];
};

export type ReplyStartSyntax = {
  envelopes?: readonly Envelope[];
  reasoningTags?: readonly ReasoningTag[];
  framingTokens?: readonly string[];
};

export type TextMarker =
  | { type: 'envelope'; entry: EnvelopeEntry }
  | { type: 'reasoning'; reasoning: ReasoningSyntax }
  | { type: 'framing' }
  | FenceMarker
  /** A reasoning close tag met outside reasoning: the reply began inside a block the template opened. */
  | { type: 'orphan-close'; tag: ReasoningTag };

/**
 * Everything a reply parser for one family needs; built once per family, shared by its parsers. Every
 * field is always present (undefined when unused), so all families' syntaxes share one shape and the
 * parser's reads of them stay monomorphic.
 */
export type ReplySyntax = {
  family: string;
  textMarkers: MarkerMatcher<TextMarker>;
  bareGrammars: readonly BodyGrammar[];
  /** The family's own reasoning tag, used when the reply starts inside reasoning. */
  reasoning: ReasoningSyntax;
  /** Markers read only at the reply's very start (the family's `replyStart`). */
  replyStartMarkers: MarkerMatcher<TextMarker> | undefined;
  /** The envelope the reply starts inside (see `FamilySyntax.replyStartsInside`). */
  replyStartsInside: EnvelopeEntry | undefined;
};

export type EnvelopeCatalogue = {
  readonly families: readonly string[];
  syntaxFor(family: string): ReplySyntax;
  /** Reasoning blocks only (no envelopes, no bare calls): for a reply read with no tools offered. */
  reasoningSyntaxFor(family: string): ReplySyntax;
};

export function createEnvelopeCatalogue(families: readonly FamilySyntax[]): EnvelopeCatalogue {
  checkSharedStartMarkers(families);
  const cache = new Map<string, ReplySyntax>();
  const reasoningCache = new Map<string, ReplySyntax>();
  const reasoningSyntax = createReasoningSyntaxes();
  const reasoningMarker = (tag: ReasoningTag): MarkerEntry<TextMarker> => ({
    marker: tag.open,
    value: { type: 'reasoning', reasoning: reasoningSyntax(tag) },
  });
  const ordered = (family: string): FamilySyntax[] => {
    const own = families.find((candidate) => candidate.family === family);
    if (own === undefined) throw new Error(`Unknown tool-call family "${family}"`);
    return [own, ...families.filter((candidate) => candidate !== own)];
  };
  const cached = (
    store: Map<string, ReplySyntax>,
    family: string,
    build: (ordered: readonly FamilySyntax[]) => ReplySyntax,
  ): ReplySyntax => {
    let syntax = store.get(family);
    if (syntax === undefined) {
      syntax = build(ordered(family));
      store.set(family, syntax);
    }
    return syntax;
  };
  return {
    families: families.map((syntax) => syntax.family),
    syntaxFor: (family) => cached(cache, family, (list) => buildReplySyntax(list, reasoningMarker, reasoningSyntax)),
    reasoningSyntaxFor: (family) =>
      cached(reasoningCache, family, (list) => {
        const tags = reasoningTagsOf(list);
        const own = list[0] as FamilySyntax;
        return {
          family: own.family,
          textMarkers: new MarkerMatcher([...tags.map(reasoningMarker), ...orphanCloseMarkers(tags, new Set(tags.map((tag) => tag.open)))]),
          bareGrammars: [],
          reasoning: openedReasoningSyntax(own.reasoningTags ?? [], reasoningSyntax, thinkTag),
          replyStartMarkers: undefined,
          replyStartsInside: undefined,
        };
      }),
  };
}

/**
 * A start marker two families register must be read alike: the merged entry scans every body with the
 * first registration's scanner, so a family whose bodies end differently would be misread in silence.
 * Grammars (told apart by `accepts`), end markers, value spans and trailing markers merge; the rest must match.
 */
function checkSharedStartMarkers(families: readonly FamilySyntax[]): void {
  const registered = new Map<string, { family: string; envelope: Envelope }[]>();
  for (const family of families) {
    for (const envelope of family.envelopes) {
      for (const start of envelope.start) {
        const earlier = registered.get(start) ?? [];
        // Two family-scoped registrations never meet: each is known to its own family's parser only.
        for (const other of earlier.filter((entry) => entry.envelope.scope !== 'family' || envelope.scope !== 'family')) {
          const difference = scanningDifference(other.envelope, envelope);
          if (difference !== undefined) {
            throw new Error(
              `Families "${other.family}" and "${family.family}" both register the start marker ${JSON.stringify(start)} with different ${difference}; a shared marker needs the same body scanning (tell bodies apart with a grammar's accepts).`,
            );
          }
        }
        registered.set(start, [...earlier, { family: family.family, envelope }]);
      }
    }
  }
}

function scanningDifference(left: Envelope, right: Envelope): string | undefined {
  if (left.kind !== right.kind) return `kinds (${left.kind}, ${right.kind})`;
  if ((left.endsAtReplyEnd === true) !== (right.endsAtReplyEnd === true)) return 'endsAtReplyEnd';
  if (left.body.type !== right.body.type) return `body scanning (${left.body.type}, ${right.body.type})`;
  if (left.body.type === 'values' && right.body.type === 'values' && left.body.separator !== right.body.separator)
    return 'value separators';
  if (left.body.type === 'custom' && right.body.type === 'custom' && left.body.createScanner !== right.body.createScanner)
    return 'body scanners (custom)';
  return undefined;
}

/**
 * `ordered[0]` is the parser's own family: family-scoped tags count only there (see `ReasoningTag.scope`),
 * and the others' tags only when they are distinctive (see fallback-markers.ts).
 */
function reasoningTagsOf(ordered: readonly FamilySyntax[]): ReasoningTag[] {
  const own = ordered[0];
  const visible = (family: FamilySyntax, tag: ReasoningTag): boolean =>
    family === own || (tag.scope !== 'family' && visibleMarkers([tag.open], false).length > 0);
  return unique(
    [...ordered.flatMap((family) => (family.reasoningTags ?? []).filter((tag) => visible(family, tag))), thinkTag],
    (tag) => tag.open,
  );
}

type ReasoningMarker = (tag: ReasoningTag) => MarkerEntry<TextMarker>;

/** Close tags met outside reasoning; one that is also another marker (Harmony's `<|end|>` is framing) keeps that meaning. */
function orphanCloseMarkers(tags: readonly ReasoningTag[], taken: ReadonlySet<string>): MarkerEntry<TextMarker>[] {
  return unique(
    tags.filter((tag) => !taken.has(tag.close)),
    (tag) => tag.close,
  ).map((tag) => ({ marker: tag.close, value: { type: 'orphan-close', tag } }));
}

/** `ordered[0]` is the parser's own family. */
function buildReplySyntax(
  ordered: readonly FamilySyntax[],
  reasoningMarker: ReasoningMarker,
  reasoningSyntax: (tag: ReasoningTag) => ReasoningSyntax,
): ReplySyntax {
  const own = ordered[0] as FamilySyntax;
  const registrations = new Map<string, Envelope[]>();
  for (const family of ordered) {
    for (const envelope of family.envelopes.filter((candidate) => family === own || candidate.scope !== 'family')) {
      for (const start of visibleMarkers(envelope.start, family === own))
        registrations.set(start, [...(registrations.get(start) ?? []), envelope]);
    }
  }
  const reasoningTags = reasoningTagsOf(ordered);
  const framingTokens = unique(
    [...(own.familyFramingTokens ?? []), ...ordered.flatMap((family) => visibleMarkers(family.framingTokens ?? [], family === own))],
    (token) => token,
  );
  const markers = [
    ...[...registrations].map(([start, envelopes]) => ({
      marker: start,
      value: { type: 'envelope', entry: mergeEntry(start, envelopes) } as TextMarker,
    })),
    ...reasoningTags.map(reasoningMarker),
    ...framingTokens.map((token) => ({ marker: token, value: { type: 'framing' } as TextMarker })),
    ...(own.fences ?? []).map((opener) => ({ marker: opener, value: fenceMarker(opener) as TextMarker })),
  ];
  const seen = new Set<string>();
  for (const { marker } of markers) {
    if (seen.has(marker))
      throw new Error(`"${marker}" is registered as two kinds of marker (envelope, reasoning tag, framing token, fence)`);
    seen.add(marker);
  }
  const replyStart = own.replyStart === undefined ? undefined : replyStartMarkers(own.replyStart, reasoningMarker);
  const entries = new Map(
    markers.flatMap((entry) => (entry.value.type === 'envelope' ? [[entry.marker, entry.value.entry] as const] : [])),
  );
  const replyStartsInside = own.replyStartsInside === undefined ? undefined : entries.get(own.replyStartsInside);
  if (own.replyStartsInside !== undefined && replyStartsInside === undefined)
    throw new Error(`"${own.replyStartsInside}" is no start marker of ${own.family}`);
  return {
    family: own.family,
    textMarkers: new MarkerMatcher([...markers, ...orphanCloseMarkers(reasoningTags, seen)]),
    bareGrammars: unique(
      ordered.flatMap((family) => family.bareGrammars ?? []),
      (grammar) => grammar.id,
    ),
    reasoning: openedReasoningSyntax(own.reasoningTags ?? [], reasoningSyntax, thinkTag),
    replyStartMarkers: replyStart,
    replyStartsInside,
  };
}

function replyStartMarkers(syntax: ReplyStartSyntax, reasoningMarker: ReasoningMarker): MarkerMatcher<TextMarker> {
  return new MarkerMatcher<TextMarker>([
    ...(syntax.envelopes ?? []).flatMap((envelope) =>
      envelope.start.map((start) => ({ marker: start, value: { type: 'envelope', entry: mergeEntry(start, [envelope]) } as TextMarker })),
    ),
    ...(syntax.reasoningTags ?? []).map(reasoningMarker),
    ...(syntax.framingTokens ?? []).map((token) => ({ marker: token, value: { type: 'framing' } as TextMarker })),
  ]);
}
