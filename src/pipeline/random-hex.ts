/**
 * Random hex for ids (completions, calls, requests), drawn from a pooled buffer: one randomBytes call
 * serves hundreds of ids, instead of one system call per id on the hot path.
 */
import { randomBytes } from 'node:crypto';

const poolSize = 4096;
let pool = randomBytes(poolSize);
let offset = 0;

/** `characters` hex digits (rounded up to whole bytes). */
export function randomHex(characters: number): string {
  const bytes = Math.ceil(characters / 2);
  if (offset + bytes > poolSize) {
    pool = randomBytes(poolSize);
    offset = 0;
  }
  const hex = pool.toString('hex', offset, offset + bytes);
  offset += bytes;
  return hex.length === characters ? hex : hex.slice(0, characters);
}
