/** Finds where an envelope's body ends in streamed text, chunk by chunk, without re-reading earlier text. */

export type BodyScanStep =
  /** The body goes on: `input[position..keepFrom)` belongs to it; `input[keepFrom..]` must be scanned again with more text. */
  | { type: 'more'; keepFrom: number }
  /** The body ends at `bodyEnd`; `input[bodyEnd..end)` is the closing marker (empty when nothing closes it explicitly). */
  | { type: 'closed'; bodyEnd: number; end: number }
  /**
   * What followed the start marker is no body of this envelope (Functionary's `>>>` before a Python
   * prompt's code): parsing goes on at `resume`, the marker kept as text when `markerIsText`, dropped with
   * the text before `resume` otherwise (the `>>>all` header before plain text). Only before any `more`
   * step with `keepFrom > position`, so that nothing of the body was taken yet.
   */
  | { type: 'declined'; resume: number; markerIsText: boolean };

/**
 * A scanner's one `more` result, refilled by each scan that asks for more text (see `moreFrom`): a long
 * body streams as one `more` per chunk, and a new object for each would be most of the scan's allocation.
 */
export type MoreStep = { type: 'more'; keepFrom: number };

export function createMoreStep(): MoreStep {
  return { type: 'more', keepFrom: 0 };
}

/** `step`, refilled to keep `input[keepFrom..]`. */
export function moreFrom(step: MoreStep, keepFrom: number): MoreStep {
  step.keepFrom = keepFrom;
  return step;
}

export interface BodyScanner {
  /**
   * Scans `input` from `position`. Must not advance its state over text it asks to see again. A `more`
   * result may be an object the next scan refills: read it before scanning again, never keep it.
   */
  scan(input: string, position: number): BodyScanStep;
  /**
   * How much of `text` (the input from where the scan stands) is body without the full scan, the state
   * advanced over it: all of it, or all but a tail that is a partial marker, held as after a `more` step
   * keeping it; -1, with nothing read, when the full scan must read it. A fast path for the many small
   * chunks inside a long body.
   */
  takeLeading?(text: string): number;
  /** Whether the reply ending now leaves the envelope undecided, its marker then being text (scanners that may decline). */
  undecidedAtEnd?(): boolean;
}

export function isSpaceCode(code: number): boolean {
  return code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;
}

export function isJsonOpenerCode(code: number): boolean {
  return code === 0x7b || code === 0x5b;
}
