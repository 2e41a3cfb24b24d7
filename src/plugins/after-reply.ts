/**
 * Work that only observes a request once its reply is settled (its log line, its request and reply
 * metrics, its usage row), done at the end of the event loop's turn for every request of that turn in a
 * row, rather than inside each request.
 *
 * Why: under load the CPU's caches hold only part of the code one request runs through. pino's
 * serializer, the metrics' series lookups and the usage rows, run once between two requests' paths,
 * evicted code of those paths and were evicted by it in turn; run for every request of a turn in a row,
 * they stay warm. Measured at 32 connections, non-streaming, paired rounds of the same tree with and
 * without: the log line and request metrics 4 to 12 % less CPU per request, the usage row and reply
 * metrics about 5 % less on top of that (docs/performance.md, seventh session). At one connection a turn holds one
 * request, and the cost is the same as before.
 *
 * What waits here waits at most for the end of the current turn (a setImmediate). Whoever reads what it
 * writes flushes it first (the metrics and usage routes), so a reader sees every request that ended
 * before it; closing the app flushes the rest. Only a crash in the same turn can lose it. What a later
 * request's admission reads (rate-limit tokens, budgets) is not put here: it is recorded at once.
 */
export class AfterReply {
  private tasks: (() => void)[] = [];
  private readonly flushBound = (): void => this.flush();

  /** `onError`: told of a task that threw (the others still run). */
  constructor(private readonly onError: (error: unknown) => void) {}

  add(task: () => void): void {
    this.tasks.push(task);
    if (this.tasks.length === 1) setImmediate(this.flushBound);
  }

  /** Runs every pending task now (the turn's end, a reader, the app's close). */
  flush(): void {
    const { tasks } = this;
    if (tasks.length === 0) return;
    // A fresh list first: a task added while these run (by one of them) goes to the next turn, not lost.
    this.tasks = [];
    for (const task of tasks) {
      try {
        task();
      } catch (error) {
        this.onError(error);
      }
    }
  }
}
