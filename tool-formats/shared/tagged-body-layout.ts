/** The markers of a `tagged` body, built once per envelope: terminators, value spans, trailing end markers. */
import type { ValueSpan } from './envelope.js';
import { MarkerMatcher, type MarkerEntry } from './marker-matcher.js';

/** `end` closes the body; `restart` (the envelope's own start marker) may close it implicitly. */
export type Terminator = 'end' | 'restart';

/**
 * Inside a raw value: what ends it, and what opens a value quoted inside it. A value with no nested
 * opener has one marker to look for, found with the native `indexOf` instead of the matcher's
 * per-character loop: values (code, file contents) are most of a long call's text.
 */
export type SpanMarkers = {
  matcher: MarkerMatcher<'close' | 'nested'>;
  close: string;
  nested: boolean;
  /**
   * Whether a start of the close at the end of a chunk may be taken as body text and remembered (see
   * `spanCarry`) instead of held back for the next chunk: the close is the body's own text, and, its
   * first character not recurring in it, no other occurrence can begin inside a carried start. Long
   * closes (`<|plamo:end_tool_arguments:plamo|>`) would otherwise be read again with every chunk.
   */
  carryable: boolean;
};

/** A `jsonValuesAfter` marker: the JSON value after it is scanned as JSON (see `TaggedBodyOptions`). */
const jsonValueFollows = { jsonValue: true } as const;
export type JsonValueFollows = typeof jsonValueFollows;

/** Built once per envelope from its value spans and trailing end markers (see `TaggedBodyOptions`). */
export type TaggedBodyLayout = {
  /** Terminators and value-span openers together, so a raw body is searched once for both. */
  rawMarkers: MarkerMatcher<Terminator | SpanMarkers | JsonValueFollows>;
  trailingEnd?: MarkerMatcher<true>;
};

export function createTaggedBodyLayout(
  terminators: readonly MarkerEntry<Terminator>[],
  valueSpans: readonly ValueSpan[],
  trailingEnd: readonly string[],
  jsonValuesAfter: readonly string[] = [],
): TaggedBodyLayout {
  const spanMarkers = (span: ValueSpan): SpanMarkers => ({
    matcher: new MarkerMatcher<'close' | 'nested'>([
      { marker: span.close, value: 'close' },
      ...(span.nested === undefined ? [] : [{ marker: span.nested, value: 'nested' as const }]),
    ]),
    close: span.close,
    nested: span.nested !== undefined,
    carryable: span.nested === undefined && span.close.indexOf(span.close.charAt(0), 1) < 0,
  });
  const rawMarkers = new MarkerMatcher<Terminator | SpanMarkers | JsonValueFollows>([
    ...terminators,
    ...valueSpans.map((span) => ({ marker: span.open, value: spanMarkers(span) })),
    ...jsonValuesAfter.map((marker) => ({ marker, value: jsonValueFollows })),
  ]);
  return trailingEnd.length === 0
    ? { rawMarkers }
    : { rawMarkers, trailingEnd: new MarkerMatcher(trailingEnd.map((marker) => ({ marker, value: true as const }))) };
}
