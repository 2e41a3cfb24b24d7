/** Types for rate-limiter-flexible's in-memory storage (the one RateLimiterMemory counts in), which its own typings leave out. */
declare module 'rate-limiter-flexible/lib/component/MemoryStorage/MemoryStorage.js' {
  import type { RateLimiterRes } from 'rate-limiter-flexible';

  export default class MemoryStorage {
    /** Adds `value` to `key`'s window, starting one of `durationSec` (0: never expires) when none is open. */
    incrby(key: string, value: number, durationSec: number): RateLimiterRes;
    get(key: string): RateLimiterRes | null;
  }
}
