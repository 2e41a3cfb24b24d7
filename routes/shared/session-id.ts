/**
 * The client's own conversation id, from the headers coding agents already send (see the clients
 * research: opencode `x-session-affinity` / `x-session-id`, Codex CLI `session-id`, Claude Code
 * `x-claude-code-session-id`, Goose `goose-session-id`). A deployment with session affinity keys on it,
 * so a conversation keeps reusing one server's prompt cache without the client doing anything new.
 */
import type { IncomingHttpHeaders } from 'node:http';

/** Most explicit first: opencode sends its affinity header beside its session id. */
const sessionHeaders = ['x-session-affinity', 'x-session-id', 'session-id', 'x-claude-code-session-id', 'goose-session-id'] as const;

/** Long enough for any uuid or prefixed id; a longer value is a client's mistake, not a session. */
const longestSessionId = 256;

export function sessionIdOf(headers: IncomingHttpHeaders): string | undefined {
  for (const name of sessionHeaders) {
    const value = headers[name];
    if (typeof value === 'string' && value.length > 0 && value.length <= longestSessionId) return value;
  }
  return undefined;
}
