/**
 * A signed reasoning block (Anthropic extended thinking) carried through a Responses client in the
 * reasoning item's `encrypted_content`. Codex asks for `include: ["reasoning.encrypted_content"]` and
 * echoes every reasoning item back on the next request; Anthropic requires the thinking block that
 * preceded a tool call, unmodified and with its signature, when the tool result comes back
 * (https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking#preserving-thinking-blocks).
 * The text travels inside the blob too, so a client that trims or drops the summary loses nothing.
 * OpenAI's own blobs (another format) are not ours to read and are still dropped.
 */
import type { ReasoningPart } from '../../src/core/message.js';

const prefix = 'interlingua.signed-reasoning.v1.';

type Carried = { text: string; signature: string };

export function encodeSignedReasoning(text: string, signature: string): string {
  const carried: Carried = { text, signature };
  return `${prefix}${Buffer.from(JSON.stringify(carried), 'utf8').toString('base64url')}`;
}

/** The reasoning part an `encrypted_content` stands for, or undefined when it is not one of ours (or is damaged). */
export function decodeSignedReasoning(encrypted: unknown): ReasoningPart | undefined {
  if (typeof encrypted !== 'string' || !encrypted.startsWith(prefix)) return undefined;
  try {
    const carried = JSON.parse(Buffer.from(encrypted.slice(prefix.length), 'base64url').toString('utf8')) as Partial<Carried>;
    if (typeof carried.text !== 'string' || typeof carried.signature !== 'string' || carried.signature === '') return undefined;
    return { type: 'reasoning', text: carried.text, signature: carried.signature };
  } catch {
    return undefined;
  }
}
