/**
 * The soak's deterministic fault mix: request number `index` under a seed always gets the same
 * scenario, so the fake upstream (which acts it out) and the checker (which judges the client's
 * stream) agree without talking to each other.
 */

export type FaultKind =
  /** A whole stream: text, or text then a tool call, and [DONE]. */
  | 'healthy'
  /** The upstream drops the connection before sending a status line. */
  | 'reset-before-headers'
  /** 200 and a few frames, then the connection is dropped. */
  | 'reset-after-headers'
  /** 200 and a few frames, then silence until the gateway's body timeout gives up. */
  | 'stall'
  /** A frame that is not JSON in the middle of an otherwise whole stream. */
  | 'garbage'
  /** 500 with OpenAI's error envelope, before any stream. */
  | 'http-500';

/** How a client's request ended, as the checker classifies it. */
export type Outcome = 'complete' | 'error-frame' | 'http-error';

export type ExpectedToolCall = { id: string; name: string; arguments: string };

export type Scenario = {
  index: number;
  kind: FaultKind;
  /** The text deltas the upstream sends (for a fault: the ones sent before it). */
  contentPieces: string[];
  /** A tool call the upstream sends after the text (healthy and garbage scenarios only). */
  toolCall?: ExpectedToolCall;
  /** Frames sent before the fault strikes (reset-after-headers, stall, garbage). */
  framesBeforeFault: number;
  /** Pause between two upstream frames: streams last long enough to overlap. */
  frameDelayMs: number;
};

/** The outcomes that are correct for each kind: anything else is a violation. */
export const allowedOutcomes: Record<FaultKind, readonly Outcome[]> = {
  healthy: ['complete'],
  'reset-before-headers': ['http-error'],
  'reset-after-headers': ['error-frame'],
  stall: ['error-frame'],
  // A gateway may skip an unreadable frame or end the stream on it; it may not pass it on.
  garbage: ['complete', 'error-frame'],
  'http-500': ['http-error'],
};

/** Most requests are healthy; the faults share the rest (weights out of 100). */
const mix: readonly [FaultKind, number][] = [
  ['healthy', 80],
  ['reset-before-headers', 4],
  ['reset-after-headers', 4],
  ['stall', 4],
  ['garbage', 4],
  ['http-500', 4],
];

const words = [
  'The',
  'gateway',
  'keeps',
  'every',
  'stream',
  'whole',
  'or',
  'says',
  'why',
  'not.',
  'Émile',
  '🙂',
  '"quoted"',
  'back\\slash',
];

/** mulberry32: a small, fast, well-mixed PRNG; the same seed gives the same sequence everywhere. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4_294_967_296;
  };
}

function pick(next: () => number): FaultKind {
  let roll = next() * 100;
  for (const [kind, weight] of mix) {
    if (roll < weight) return kind;
    roll -= weight;
  }
  return 'healthy';
}

export function scenarioFor(seed: number, index: number): Scenario {
  const next = random(Math.imul(seed, 0x9e3779b1) ^ index);
  const kind = pick(next);
  const pieceCount = 8 + Math.floor(next() * 16);
  const contentPieces = Array.from({ length: pieceCount }, () => ` ${words[Math.floor(next() * words.length)]}`);
  const scenario: Scenario = {
    index,
    kind,
    contentPieces,
    framesBeforeFault: 1 + Math.floor(next() * 4),
    frameDelayMs: 10 + Math.floor(next() * 30),
  };
  if ((kind === 'healthy' || kind === 'garbage') && next() < 0.3) {
    scenario.toolCall = {
      id: `call_soak_${index}`,
      name: 'lookup',
      arguments: JSON.stringify({ query: contentPieces.join('').trim(), index }),
    };
  }
  return scenario;
}

/** The marker a request carries so the upstream knows its number: the whole user message. */
export function requestMarker(index: number): string {
  return `soak request ${index}`;
}

export function indexFromMarker(text: string): number | undefined {
  const match = /soak request (\d+)/.exec(text);
  return match ? Number(match[1]) : undefined;
}
