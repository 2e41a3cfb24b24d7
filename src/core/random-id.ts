/** Random ids the gateway mints (completions, tool calls, requests) from secure random UUIDs. */
// The global Web Crypto keeps the core free of imports. Node's randomUUID draws from its own cache of
// random bytes (one system call per 128 UUIDs), so no pool of ours, and no state kept here, is needed:
// measured on this machine, about 1 µs an id against 0.7 µs with a pool, a few ids per request.

/**
 * `characters` random hex digits. Each UUID gives 32 digits, 30 of them random (its version digit is
 * always 4 and its variant digit has 2 random bits): ids need to be unique and unguessable, not uniform.
 */
export function randomHex(characters: number): string {
  let hex = '';
  while (hex.length < characters) hex += crypto.randomUUID().replaceAll('-', '');
  return hex.length === characters ? hex : hex.slice(0, characters);
}

/**
 * A tool-call id for calls whose upstream named none: `call_` + 24 hex characters, like OpenAI's; from
 * `pool` (the app's RandomHexPool, random-hex-pool.ts) when the caller has it, as the prompted lane does.
 */
export function generateCallId(pool?: { hex(characters: number): string }): string {
  return `call_${pool ? pool.hex(24) : randomHex(24)}`;
}
