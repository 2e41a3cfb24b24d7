/**
 * Whether an upstream's refusal says the prompt does not fit the model's context. Each server says it in
 * its own words, and each client API has one sign for it that clients act on (OpenAI's code
 * `context_length_exceeded`, Anthropic's message `prompt is too long: …`), so the words are read here
 * and the sign given in every inbound API's envelope:
 * - OpenAI and vLLM: "This model's maximum context length is N tokens. However, you requested …"
 *   (vLLM's input validation, vllm/entrypoints/openai/serving_engine.py `_validate_input`), and vLLM's
 *   processor: "The decoder prompt (length N) is longer than the maximum model length of M.";
 * - SGLang: "The input (N tokens) is longer than the model's context length (M tokens)."
 *   (python/sglang/srt/managers/tokenizer_manager.py, `_validate_one_request`);
 * - llama-server: type `exceed_context_size_error`, "request (N tokens) exceeds the available context size
 *   (M tokens), try increasing it" (tools/server/server-context.cpp); Ollama passes the same text on;
 * - Anthropic: "prompt is too long: N tokens > M maximum" (https://docs.anthropic.com/en/api/errors).
 */
const overflowWords =
  /maximum context length is|is longer than the maximum model length|longer than the model's context length|exceeds the available context size|^prompt is too long/i;

export function isContextOverflow(status: number, message: string, upstreamType: string | null): boolean {
  if (status !== 400 && status !== 413) return false;
  return upstreamType === 'exceed_context_size_error' || upstreamType === 'context_length_exceeded' || overflowWords.test(message);
}
