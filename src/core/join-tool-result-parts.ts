/**
 * A tool result's text parts, as the one string a neutral tool result holds. Each wire API (Chat's tool
 * message content array, Responses' `function_call_output` parts, Messages' `tool_result` blocks) joins them
 * the same way, so one result reads the same whichever API the client used.
 *
 * A newline, not nothing: separate parts are separate pieces (an MCP tool's several text items, a file per
 * block), and run together ("line onefile b") they read as one mangled word. A newline is also what the
 * servers that flatten an array of text parts themselves put between them (vLLM's chat_utils
 * `"\n".join(texts)`, which this gateway's tool messages reach on an openai-compatible provider), so the
 * model reads the same text whether the gateway or the server joined them.
 */
export function joinToolResultParts(texts: readonly string[]): string {
  return texts.join('\n');
}
