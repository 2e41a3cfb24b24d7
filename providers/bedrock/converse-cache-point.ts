/** Prompt-cache breakpoints in Converse's own form. */
import type { ContentBlock } from '@aws-sdk/client-bedrock-runtime';
import type { CacheMark } from '../../src/core/message.js';

/**
 * A cache breakpoint as Converse writes one: a `cachePoint` block after what it covers
 * (https://docs.aws.amazon.com/bedrock/latest/userguide/prompt-caching.html), with the mark's TTL when
 * Converse knows it. Sent to Claude only, whose Bedrock models all cache; others may refuse the block.
 */
export function cachePointOf(mark: CacheMark): ContentBlock.CachePointMember {
  const ttl = mark.ttl === '5m' || mark.ttl === '1h' ? mark.ttl : undefined;
  return { cachePoint: ttl ? { type: 'default', ttl } : { type: 'default' } };
}
