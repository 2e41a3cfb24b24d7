/**
 * Anthropic's `cache_control` on a block, a system block or a tool (on the Messages API, and on Chat
 * Completions content parts as OpenRouter and the clients written for it send it), as the neutral CacheMark. Only the
 * form Anthropic defines is kept (`{type: "ephemeral", ttl?}`); anything else is left for no upstream to
 * refuse, since a cache breakpoint changes what is cached, never what the model answers.
 */
import type { CacheMark } from '../../src/core/message.js';

export function wireCacheMark(value: unknown): CacheMark | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { type, ttl } = value as { type?: unknown; ttl?: unknown };
  if (type !== 'ephemeral') return undefined;
  return typeof ttl === 'string' ? { type, ttl } : { type };
}

/** The breakpoint of blocks that become one neutral part: the last one marked (it covers the blocks before it). */
export function lastCacheMark(blocks: readonly object[]): CacheMark | undefined {
  for (let index = blocks.length - 1; index >= 0; index--) {
    const mark = wireCacheMark(cacheControlOf(blocks[index]));
    if (mark) return mark;
  }
  return undefined;
}

/** The part with its block's breakpoint, when it has one (no `cache` member otherwise: the common case stays small). */
export function withCacheMark<Part extends { cache?: CacheMark }>(part: Part, block: object): Part {
  const control = cacheControlOf(block);
  if (control === undefined || control === null) return part;
  const mark = wireCacheMark(control);
  if (mark) part.cache = mark;
  return part;
}

/** Wire blocks are typed by their schemas, some with an index signature: the member is read the same way for all. */
function cacheControlOf(block: object | undefined): unknown {
  return (block as { cache_control?: unknown } | undefined)?.cache_control;
}
