/** Random ids the gateway mints (completions, tool calls, requests) from pooled secure random bytes. */
// The global Web Crypto keeps the core free of imports; the pool lets one system call serve hundreds of ids.

const poolSize = 4096;
const pool = new Uint8Array(poolSize);
let offset = poolSize;
const hexDigits = '0123456789abcdef';

/** `characters` random hex digits. */
export function randomHex(characters: number): string {
  let hex = '';
  while (hex.length < characters) {
    if (offset === poolSize) {
      crypto.getRandomValues(pool);
      offset = 0;
    }
    const byte = pool[offset++]!;
    hex += hexDigits[byte >> 4]! + hexDigits[byte & 15]!;
  }
  return hex.length === characters ? hex : hex.slice(0, characters);
}

/** A tool-call id for calls whose upstream named none: `call_` + 24 hex characters, like OpenAI's. */
export function generateCallId(): string {
  return `call_${randomHex(24)}`;
}
