/** Finds the end of a Harmony message addressed to a tool: its header up to `<|message|>`, then its content. */
// The header (`functions.NAME <|constrain|>json` or `functions.NAME<|channel|>commentary json`) holds
// no strings; the content is scanned by the shared tagged scanner, string-aware when it is JSON, so a
// `<|call|>` inside an argument does not end the call. A next message's `<|start|>` ends an unclosed
// call without being consumed (it may open the next call).
import type { BodyScanner, BodyScanStep } from '../shared/body-scanner.js';
import type { Envelope } from '../shared/envelope.js';
import { MarkerMatcher } from '../shared/marker-matcher.js';
import type { Terminator } from '../shared/tagged-body-layout.js';
import { TaggedBodyScanner } from '../shared/tagged-body-scanner.js';

export const messageMarker = '<|message|>';
export const startMarker = '<|start|>';

type HeaderMarker = Terminator | 'message';

export class HarmonyMessageScanner implements BodyScanner {
  private content: TaggedBodyScanner | undefined;

  constructor(
    private readonly headerMarkers: MarkerMatcher<HeaderMarker>,
    private readonly contentTerminators: MarkerMatcher<Terminator>,
  ) {}

  scan(input: string, position: number): BodyScanStep {
    if (this.content !== undefined) return this.content.scan(input, position);
    const hit = this.headerMarkers.find(input, position);
    switch (hit.type) {
      case 'none':
        return { type: 'more', keepFrom: input.length };
      case 'partial':
        return { type: 'more', keepFrom: hit.index };
      case 'found':
        switch (hit.value) {
          case 'message':
            this.content = new TaggedBodyScanner(this.contentTerminators);
            return this.content.scan(input, hit.index + hit.marker.length);
          case 'end':
            return { type: 'closed', bodyEnd: hit.index, end: hit.index + hit.marker.length };
          case 'restart':
            return { type: 'closed', bodyEnd: hit.index, end: hit.index };
        }
    }
  }

  /** The header as `scan` reads it while no marker is in it (up to a partial one at the end); the content as its scanner takes it. */
  takeLeading(text: string): number {
    if (this.content !== undefined) return this.content.takeLeading(text);
    return this.headerMarkers.unmarkedLength(text, 0);
  }
}

/** The scanner factory for a custom `body`: the matchers are built once per envelope, not per call. */
export function harmonyMessageScanning(): (envelope: Envelope) => BodyScanner {
  const built = new WeakMap<Envelope, { header: MarkerMatcher<HeaderMarker>; content: MarkerMatcher<Terminator> }>();
  return (envelope) => {
    let matchers = built.get(envelope);
    if (matchers === undefined) {
      const terminators = [
        ...envelope.end.map((marker) => ({ marker, value: 'end' as const })),
        { marker: startMarker, value: 'restart' as const },
      ];
      matchers = {
        header: new MarkerMatcher<HeaderMarker>([...terminators, { marker: messageMarker, value: 'message' }]),
        content: new MarkerMatcher<Terminator>(terminators),
      };
      built.set(envelope, matchers);
    }
    return new HarmonyMessageScanner(matchers.header, matchers.content);
  };
}
