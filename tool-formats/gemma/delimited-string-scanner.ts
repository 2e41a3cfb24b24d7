/** Finds the end of a `call:NAME{…}` body whose strings sit between a delimiter token (`<|"|>`, `<escape>`). */
// Gemma 4 and FunctionGemma quote strings with one special token on both sides, so an end marker
// between two delimiters is argument text, not the end of the call. Outside strings, the envelope's
// own start marker also ends a body (a forgotten closing tag between two calls) without being consumed.
import type { BodyScanner, BodyScanStep } from '../shared/body-scanner.js';
import type { Envelope } from '../shared/envelope.js';
import { MarkerMatcher } from '../shared/marker-matcher.js';
import type { Terminator } from '../shared/tagged-body-layout.js';

type BodyMarker = Terminator | 'delimiter';

const nonSpace = /\S/;

export class DelimitedStringScanner implements BodyScanner {
  private inString = false;
  /** Whether anything but whitespace was read: a start marker before that is a doubled one, skipped. */
  private started = false;

  constructor(private readonly markers: MarkerMatcher<BodyMarker>) {}

  scan(input: string, position: number): BodyScanStep {
    let index = position;
    for (;;) {
      const hit = this.markers.find(input, index);
      const until = hit.type === 'none' ? input.length : hit.index;
      if (!this.started && nonSpace.test(input.slice(index, until))) this.started = true;
      switch (hit.type) {
        case 'none':
          return { type: 'more', keepFrom: input.length };
        case 'partial':
          return { type: 'more', keepFrom: hit.index };
        case 'found': {
          const after = hit.index + hit.marker.length;
          if (hit.value === 'delimiter') {
            this.inString = !this.inString;
            this.started = true;
          } else if (!this.inString) {
            if (hit.value === 'end') return { type: 'closed', bodyEnd: hit.index, end: after };
            if (this.started) return { type: 'closed', bodyEnd: hit.index, end: hit.index };
          }
          index = after;
        }
      }
    }
  }
}

/** The scanner factory for a custom `body`; the marker matcher is built once per envelope. */
export function delimitedStringScanning(delimiter: string): (envelope: Envelope) => BodyScanner {
  const built = new WeakMap<Envelope, MarkerMatcher<BodyMarker>>();
  return (envelope) => {
    let markers = built.get(envelope);
    if (markers === undefined) {
      markers = new MarkerMatcher<BodyMarker>([
        ...envelope.end.map((marker) => ({ marker, value: 'end' as const })),
        ...envelope.start.map((marker) => ({ marker, value: 'restart' as const })),
        { marker: delimiter, value: 'delimiter' },
      ]);
      built.set(envelope, markers);
    }
    return new DelimitedStringScanner(markers);
  };
}
