/** Finds where the body after Mistral's `[TOOL_CALLS]` ends: right after its JSON, so text may follow. */
// `[{…}, …]` (v0.3/Nemo), `NAME{…}` (tokenizer v11+), `NAME[ARGS]{…}` (Magistral, Devstral, Ministral)
// and `NAME[CALL_ID]ID[ARGS]{…}` (Small 3.2) all end with one JSON value. Anything else after the
// marker is read up to the next `[TOOL_CALLS]` or the end of the reply, and then rejected.
import { isJsonOpenerCode, isSpaceCode, type BodyScanner, type BodyScanStep } from '../shared/body-scanner.js';
import type { Envelope } from '../shared/envelope.js';
import { advanceJsonScan, advanceJsonScanOverChunk, JsonScanState } from '../shared/json-scan-state.js';
import { MarkerMatcher } from '../shared/marker-matcher.js';
import { isNameCode } from '../shared/is-name-code.js';

/** The markers between a call's name and its arguments. */
export const argumentsMarker = '[ARGS]';
export const callIdMarker = '[CALL_ID]';

/** `restart`: the envelope's own start (the next call); `end`: an explicit end marker; `segment`: `[ARGS]`, `[CALL_ID]`. */
type BodyMarker = 'restart' | 'end' | 'segment';

type Markers = { all: MarkerMatcher<BodyMarker>; stops: MarkerMatcher<BodyMarker> };

const openBrace = 0x7b;

/**
 * The scanner factory of one family: each envelope's markers are built on its first call and kept by
 * the factory (no module-level cache), so a call costs no matcher building.
 */
export function mistralCallsScanning(): (envelope: Envelope) => BodyScanner {
  const markersByEnvelope = new WeakMap<Envelope, Markers>();
  return (envelope) => {
    let markers = markersByEnvelope.get(envelope);
    if (markers === undefined) {
      markers = bodyMarkers(envelope);
      markersByEnvelope.set(envelope, markers);
    }
    return new MistralCallsScanner(markers);
  };
}

function bodyMarkers(envelope: Envelope): Markers {
  const stops = [
    ...envelope.start.map((marker) => ({ marker, value: 'restart' as const })),
    ...envelope.end.map((marker) => ({ marker, value: 'end' as const })),
  ];
  const segments = [argumentsMarker, callIdMarker].map((marker) => ({ marker, value: 'segment' as const }));
  return { all: new MarkerMatcher<BodyMarker>([...stops, ...segments]), stops: new MarkerMatcher<BodyMarker>(stops) };
}

class MistralCallsScanner implements BodyScanner {
  private phase: 'sniff' | 'name' | 'value' | 'raw' = 'sniff';
  private readonly state = new JsonScanState();

  constructor(private readonly markers: Markers) {}

  scan(input: string, position: number): BodyScanStep {
    let index = position;
    for (;;) {
      switch (this.phase) {
        case 'sniff': {
          while (index < input.length && isSpaceCode(input.charCodeAt(index))) index++;
          if (index >= input.length) return { type: 'more', keepFrom: index };
          const hit = this.markers.all.matchAt(input, index);
          if (hit.type === 'partial') return { type: 'more', keepFrom: index };
          if (hit.type === 'found' && hit.value === 'restart') {
            // `[TOOL_CALLS][TOOL_CALLS]…`: a doubled marker opens one body.
            index += hit.marker.length;
            break;
          }
          if (hit.type === 'found' && hit.value === 'end') return { type: 'closed', bodyEnd: index, end: index + hit.marker.length };
          const code = input.charCodeAt(index);
          this.phase = hit.type === 'none' && isJsonOpenerCode(code) ? 'value' : hit.type === 'none' && isNameCode(code) ? 'name' : 'raw';
          break;
        }
        case 'name': {
          const step = this.scanName(input, index);
          if (typeof step !== 'number') return step;
          index = step;
          break;
        }
        case 'value': {
          const closedBefore = this.state.completedValues;
          index = advanceJsonScan(this.state, input, index, undefined, true);
          if (this.state.completedValues > closedBefore) return { type: 'closed', bodyEnd: index, end: index };
          return { type: 'more', keepFrom: index };
        }
        case 'raw': {
          const hit = this.markers.stops.find(input, index);
          if (hit.type === 'none') return { type: 'more', keepFrom: input.length };
          if (hit.type === 'partial') return { type: 'more', keepFrom: hit.index };
          return { type: 'closed', bodyEnd: hit.index, end: hit.value === 'end' ? hit.index + hit.marker.length : hit.index };
        }
      }
    }
  }

  /** Inside the arguments' JSON, a chunk that does not close it is taken whole, as `scan` would take it. */
  takeLeading(text: string): number {
    return this.phase === 'value' && advanceJsonScanOverChunk(this.state, text, undefined, true) ? text.length : -1;
  }

  /** The name and its `[CALL_ID]…[ARGS]` segments: up to `{` (the arguments), or to where the body stops looking like a call. */
  private scanName(input: string, from: number): BodyScanStep | number {
    let index = from;
    while (index < input.length) {
      const code = input.charCodeAt(index);
      if (isNameCode(code) || isSpaceCode(code)) {
        index++;
        continue;
      }
      if (code === openBrace) {
        this.phase = 'value';
        return index;
      }
      const hit = this.markers.all.matchAt(input, index);
      if (hit.type === 'partial') return { type: 'more', keepFrom: index };
      if (hit.type === 'none') {
        this.phase = 'raw';
        return index;
      }
      switch (hit.value) {
        case 'segment':
          index += hit.marker.length;
          break;
        case 'restart':
          return { type: 'closed', bodyEnd: index, end: index };
        case 'end':
          return { type: 'closed', bodyEnd: index, end: index + hit.marker.length };
      }
    }
    return { type: 'more', keepFrom: index };
  }
}
