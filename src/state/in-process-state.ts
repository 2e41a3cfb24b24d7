/** The default state: rate-limit counters in this process's memory (one replica, or limits per replica). */
import { MemoryStreamSlots, MemoryWindowCounter } from './in-process-limits.js';
import type { InProcessState } from './shared-state.js';

export function createInProcessState(): InProcessState {
  return {
    kind: 'in-process',
    windowCounter: ({ durationSeconds }) => new MemoryWindowCounter(durationSeconds),
    streamSlots: () => new MemoryStreamSlots(),
    problem: async () => undefined,
    connect: async () => undefined,
    close: async () => undefined,
  };
}
