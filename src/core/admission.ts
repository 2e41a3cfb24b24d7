/** What the rate limits hand a request they admit (src/plugins/rate-limits.ts makes them; routes hold them). */

/** What one admitted request holds: headers to send, its stream slots to give back, its tokens to count. */
export type Admission = {
  headers: Record<string, string>;
  /** Whether it holds stream slots, to give back when the reply closes. */
  readonly holdsSlots: boolean;
  /** Counts the reply's tokens against the minute. */
  recordTokens(tokens: number): void;
  /** Gives back the concurrent-stream slots (idempotent). */
  release(): void;
};
