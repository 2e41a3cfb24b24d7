/** One start marker with everything the families register for it merged: the entry a text marker opens. */
import type { BodyGrammar } from './body-grammar.js';
import type { BodyScanner } from './body-scanner.js';
import type { Envelope } from './envelope.js';
import { MarkerMatcher, type MarkerEntry } from './marker-matcher.js';
import { createTaggedBodyLayout, type Terminator } from './tagged-body-layout.js';
import { TaggedBodyScanner } from './tagged-body-scanner.js';
import { ValuesBodyScanner } from './values-body-scanner.js';
import { unique } from './unique.js';

/** One start marker with everything registered for it, merged. */
export type EnvelopeEntry = {
  start: string;
  family: string;
  kind: Envelope['kind'];
  endsAtReplyEnd: boolean;
  grammars: readonly BodyGrammar[];
  /** End markers of all registrations (used to recover an end marker hidden in a broken string). */
  end: readonly string[];
  /**
   * Every marker a body scanner of the entry may hold a partial of (start, end, value spans, trailing
   * end markers): while what a scanner held is still a proper prefix of one, the parser holds the next
   * chunks too instead of scanning the held text again (see ReplyParser.push).
   */
  heldMarkers: MarkerMatcher<true>;
  createScanner(): BodyScanner;
};

export function mergeEntry(start: string, envelopes: readonly Envelope[]): EnvelopeEntry {
  const first = envelopes[0] as Envelope;
  const end = unique(
    envelopes.flatMap((envelope) => envelope.end),
    (marker) => marker,
  );
  const grammars = unique(
    envelopes.flatMap((envelope) => envelope.grammars),
    (grammar) => grammar.id,
  );
  const terminatorEntries = (restart: readonly string[]): MarkerEntry<Terminator>[] => [
    ...end.map((marker) => ({ marker, value: 'end' as const })),
    ...restart.map((marker) => ({ marker, value: 'restart' as const })),
  ];
  const terminators = (restart: readonly string[]) => new MarkerMatcher<Terminator>(terminatorEntries(restart));
  const held = [start, ...end];
  let createScanner: () => BodyScanner;
  switch (first.body.type) {
    case 'tagged': {
      const matcher = terminators([start]);
      // Every registration's value spans and trailing markers count, so that all parsers read a shared
      // marker's bodies alike (Qwen3-Coder parameters and GLM values under <tool_call>).
      const tagged = envelopes.flatMap((envelope) => (envelope.body.type === 'tagged' ? [envelope.body] : []));
      const valueSpans = unique(
        tagged.flatMap((body) => body.valueSpans ?? []),
        (span) => span.open,
      );
      const trailingEnd = unique(
        tagged.flatMap((body) => body.trailingEnd ?? []),
        (marker) => marker,
      );
      const jsonValuesAfter = unique(
        tagged.flatMap((body) => body.jsonValuesAfter ?? []),
        (marker) => marker,
      );
      const layout =
        valueSpans.length === 0 && trailingEnd.length === 0 && jsonValuesAfter.length === 0
          ? undefined
          : createTaggedBodyLayout(terminatorEntries([start]), valueSpans, trailingEnd, jsonValuesAfter);
      held.push(
        ...valueSpans.flatMap((span) => [span.open, span.close, ...(span.nested === undefined ? [] : [span.nested])]),
        ...trailingEnd,
        ...jsonValuesAfter,
      );
      const code = tagged.some((body) => body.code === true);
      const headerEnd = tagged.find((body) => body.headerEnd !== undefined)?.headerEnd;
      createScanner = () => new TaggedBodyScanner(matcher, layout, code, headerEnd);
      break;
    }
    case 'values': {
      const matcher = terminators([]);
      const separator = first.body.separator;
      createScanner = () => new ValuesBodyScanner(matcher, separator);
      break;
    }
    case 'custom': {
      const create = first.body.createScanner;
      const merged = { ...first, end };
      createScanner = () => create(merged);
      break;
    }
  }
  const heldMarkers = new MarkerMatcher(held.map((marker) => ({ marker, value: true as const })));
  return {
    start,
    family: first.family,
    kind: first.kind,
    endsAtReplyEnd: first.endsAtReplyEnd === true,
    grammars,
    end,
    heldMarkers,
    createScanner,
  };
}
