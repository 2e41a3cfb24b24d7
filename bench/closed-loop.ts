/**
 * The load generators' common driver: `workers` loops, each starting its next iteration as soon as
 * the previous one ends, until the window closes; failures are counted and the first one is kept.
 */
import type { Dispatcher } from 'undici';

export type Failures = { count: number; first?: string };

/** Records a failed request: a non-200 answer (its status and the start of its body) or a thrown error. */
export async function recordFailure(failures: Failures, failure: Dispatcher.ResponseData | Error): Promise<void> {
  failures.count++;
  if (failure instanceof Error) failures.first ??= failure.message;
  else {
    const text = await failure.body.text().catch(() => '');
    failures.first ??= `HTTP ${failure.statusCode}: ${text.slice(0, 300)}`;
  }
}

/** Runs the loops and returns the elapsed time in ms (the last iterations may end after the window). */
export async function runClosedLoop(
  workers: number,
  durationMs: number,
  iteration: () => Promise<void>,
  failures: Failures,
): Promise<number> {
  const started = performance.now();
  const deadline = started + durationMs;
  async function worker(): Promise<void> {
    while (performance.now() < deadline) {
      try {
        await iteration();
      } catch (error) {
        await recordFailure(failures, error as Error);
      }
    }
  }
  await Promise.all(Array.from({ length: workers }, worker));
  return performance.now() - started;
}
