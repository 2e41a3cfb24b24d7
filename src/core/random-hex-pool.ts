/** Random hex ids for what every request mints (its request id, its completion id), from a pool of secure random bytes. */
import { randomHex } from './random-id.js';

/** One draw from the system's secure source per this many bytes: 512 request ids of 16 digits. */
const poolBytes = 8192;

/**
 * A UUID per id (randomHex) costs about 1 µs with its dashes taken out, twice or more per request; a
 * slice of a pool refilled by `crypto.getRandomValues` costs a fifth of that. Each byte is handed out
 * once, as Node's own randomUUID hands out its cached bytes. Built once per app (src/app.ts).
 */
export class RandomHexPool {
  private readonly bytes = Buffer.alloc(poolBytes);
  private used = poolBytes;

  /** `characters` random lowercase hex digits (an odd count draws its last digit from a whole byte). */
  hex(characters: number): string {
    const needed = Math.ceil(characters / 2);
    if (needed > poolBytes) return randomHex(characters);
    if (this.used + needed > poolBytes) {
      crypto.getRandomValues(this.bytes);
      this.used = 0;
    }
    const text = this.bytes.toString('hex', this.used, this.used + needed);
    this.used += needed;
    return text.length === characters ? text : text.slice(0, characters);
  }
}
