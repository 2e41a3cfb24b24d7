/**
 * A tool call id as Anthropic and Bedrock take it: `^[a-zA-Z0-9_-]+$` (both), at most 64 characters
 * (Bedrock's `toolUseId`), or the request is refused with a 400.
 */
// Ids from elsewhere break that rule: Kimi K2 names its calls `functions.NAME:IDX` (the prompted lane
// returns them as they are, as vLLM does), other clients and servers use dots, colons, pipes or long ids. A
// conversation holding one, sent on to Claude or Bedrock (a fallback, or a client switching models), got
// "messages.N.content.M.tool_use.id: String should match pattern". Such an id is re-spelled the same way
// in its call and its result, so the pair still matches; a SHA-256 keeps different ids apart within the
// length. Neither provider sends these ids back: its reply's calls have ids of its own.
import { createHash } from 'node:crypto';

const allowed = /^[a-zA-Z0-9_-]{1,64}$/;

export function restrictedToolId(id: string): string {
  return allowed.test(id) ? id : `id_${createHash('sha256').update(id).digest('base64url')}`;
}
