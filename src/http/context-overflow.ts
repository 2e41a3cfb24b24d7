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
 *   (M tokens), try increasing it" (tools/server/server-context.cpp); Ollama passes the same body on inside
 *   its own text (read by src/http/upstream-error.ts) when asked not to truncate;
 * - Ollama, by default: "the prompt is longer than the context length currently available to the model; …"
 *   (llm/llama_server.go, `completionPromptForRequest`, a 400), and before its llama-server runner "the input
 *   length exceeds the context length" (runner/llamarunner, `errorInputTooLong`);
 * - LM Studio: "Trying to keep the first N tokens when context the overflows. However, the model is loaded
 *   with context length of only M tokens, …" and "The number of tokens to keep from the initial prompt is
 *   greater than the context length (n_keep: N>= n_ctx: M). …", 400s as its users quote them
 *   (lmstudio-ai/lmstudio-bug-tracker#237, #546; Gitlawb/openclaude#353);
 * - Anthropic: "prompt is too long: N tokens > M maximum" (https://docs.anthropic.com/en/api/errors).
 */
const overflowWords = new RegExp(
  [
    'maximum context length is',
    'is longer than the maximum model length',
    "longer than the model's context length",
    'exceeds the available context size',
    '^prompt is too long',
    'the prompt is longer than the context length',
    'input length exceeds the context length',
    'when context (?:the )?overflows',
    'tokens to keep from the initial prompt is greater than the context length',
  ].join('|'),
  'i',
);

export function isContextOverflow(status: number, message: string, upstreamType: string | null): boolean {
  if (status !== 400 && status !== 413) return false;
  return upstreamType === 'exceed_context_size_error' || upstreamType === 'context_length_exceeded' || overflowWords.test(message);
}
