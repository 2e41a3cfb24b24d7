/** The default state: rate-limit counters in this process's memory (one replica, or limits per replica). */
import { RateLimiterMemory } from 'rate-limiter-flexible';
import type { InProcessState } from './shared-state.js';

export function createInProcessState(): InProcessState {
  return {
    kind: 'in-process',
    createLimiter: ({ points, duration }) => new RateLimiterMemory({ points, duration }),
    problem: async () => undefined,
    connect: async () => undefined,
    close: async () => undefined,
  };
}
