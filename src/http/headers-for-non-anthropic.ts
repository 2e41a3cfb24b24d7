/** Drops the client's `anthropic-*` headers from what a non-Anthropic upstream is sent. */

/**
 * The Messages route forwards `anthropic-version` and `anthropic-beta` so an Anthropic upstream
 * speaks the client's API version and betas. They mean nothing to OpenAI, OpenAI-compatible or
 * Ollama servers, and some proxies in front of those reject unknown `anthropic-*` headers, so only
 * the Anthropic adapter ever sends them.
 */
export function headersForNonAnthropic(headers: Record<string, string> | undefined): Record<string, string> | undefined {
  if (!headers) return undefined;
  let kept: Record<string, string> | undefined;
  for (const [name, value] of Object.entries(headers)) {
    if (name.toLowerCase().startsWith('anthropic-')) continue;
    (kept ??= {})[name] = value;
  }
  return kept;
}

/**
 * A call's headers: the client's forwarded ones (less `anthropic-*`) under the provider's own, which always
 * win (Node lowercases inbound header names, as the shared headers are). Without any, the shared object
 * itself: no copy per request on the hot path.
 */
export function withForwardedHeaders(
  shared: Record<string, string>,
  forwarded: Record<string, string> | undefined,
): Record<string, string> {
  const kept = headersForNonAnthropic(forwarded);
  return kept ? { ...kept, ...shared } : shared;
}
