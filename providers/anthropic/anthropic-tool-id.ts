/** A tool call id as Anthropic takes it: `^[a-zA-Z0-9_-]+$`, or the request is refused with a 400. */
// Ids from elsewhere break that pattern: Kimi K2 names its calls `functions.NAME:IDX` (the prompted lane
// returns them as they are, as vLLM does), other clients and servers use dots, colons or pipes. A
// conversation holding one, sent on to Claude (a fallback, or a client switching models), got
// "messages.N.content.M.tool_use.id: String should match pattern". Such an id is re-spelled the same way
// in its tool_use and its tool_result, so the pair still matches; base64url keeps different ids apart.
// Anthropic never sends these ids back: its reply's calls have ids of its own.
const allowed = /^[a-zA-Z0-9_-]+$/;

export function anthropicToolId(id: string): string {
  return allowed.test(id) ? id : `id_${Buffer.from(id, 'utf8').toString('base64url')}`;
}
