/** Finds where an envelope's body ends in streamed text, chunk by chunk, without re-reading earlier text. */

export type BodyScanStep =
  /** The body goes on: `input[position..keepFrom)` belongs to it; `input[keepFrom..]` must be scanned again with more text. */
  | { type: 'more'; keepFrom: number }
  /** The body ends at `bodyEnd`; `input[bodyEnd..end)` is the closing marker (empty when nothing closes it explicitly). */
  | { type: 'closed'; bodyEnd: number; end: number };

export interface BodyScanner {
  /** Scans `input` from `position`. Must not advance its state over text it asks to see again. */
  scan(input: string, position: number): BodyScanStep;
}

export function isSpaceCode(code: number): boolean {
  return code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;
}

export function isJsonOpenerCode(code: number): boolean {
  return code === 0x7b || code === 0x5b;
}
