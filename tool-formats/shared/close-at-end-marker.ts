/** How a tagged body closes at its end marker, with a trailing end marker after it (`</function></tool_call>`) taken along. */
import { isSpaceCode, moreFrom, type BodyScanStep, type MoreStep } from './body-scanner.js';
import type { MarkerMatcher } from './marker-matcher.js';

/**
 * Whitespace allowed between the end marker and a trailing end marker. Bounded, because the scanner
 * holds that whitespace back while it waits, and a model stuck printing newlines must not make it
 * re-read them for ever.
 */
const trailingGapLimit = 16;

/** Closes at the end marker `marker` at `index`; `moreStep` is the scanner's own `more` result. */
export function closeAtEndMarker(
  input: string,
  index: number,
  marker: string,
  trailing: MarkerMatcher<true> | undefined,
  moreStep: MoreStep,
): BodyScanStep {
  const end = index + marker.length;
  if (trailing === undefined) return { type: 'closed', bodyEnd: index, end };
  let next = end;
  while (next < input.length && next - end <= trailingGapLimit && isSpaceCode(input.charCodeAt(next))) next++;
  if (next - end > trailingGapLimit) return { type: 'closed', bodyEnd: index, end };
  // Undecided yet: the end marker is read again with the next chunk (the scan state is as it was there).
  if (next >= input.length) return moreFrom(moreStep, index);
  const hit = trailing.matchAt(input, next);
  if (hit.type === 'partial') return moreFrom(moreStep, index);
  return { type: 'closed', bodyEnd: index, end: hit.type === 'found' ? next + hit.marker.length : end };
}
