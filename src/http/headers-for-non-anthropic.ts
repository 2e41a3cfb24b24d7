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
