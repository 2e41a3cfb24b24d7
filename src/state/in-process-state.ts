/** The default state: rate-limit counters in this process's memory (one replica, or limits per replica). */
import { MemoryStreamSlots, MemoryWindowCounter } from './in-process-limits.js';
import type { InProcessState } from './shared-state.js';

/**
 * Counters are kept by name (and window), as Redis keeps them by key: an app built again on a reloaded
 * config asks for the same names and goes on counting where the last one was.
 */
export function createInProcessState(): InProcessState {
  const windowCounters = new Map<string, MemoryWindowCounter>();
  const slots = new Map<string, MemoryStreamSlots>();
  return {
    kind: 'in-process',
    windowCounter: ({ name, durationSeconds }) => {
      const key = `${name}\u0000${durationSeconds}`;
      let counter = windowCounters.get(key);
      if (!counter) {
        counter = new MemoryWindowCounter(durationSeconds);
        windowCounters.set(key, counter);
      }
      return counter;
    },
    streamSlots: (name) => {
      let named = slots.get(name);
      if (!named) {
        named = new MemoryStreamSlots();
        slots.set(name, named);
      }
      return named;
    },
    problem: async () => undefined,
    connect: async () => undefined,
    close: async () => undefined,
  };
}
