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
 * - LM Studio's MLX engine: "Prepared prompt has N tokens, exceeding the fitted M-token context"
 *   (lmstudio-ai/mlx-engine, mlx_engine/model_kit/batched_vision/context_fit.py, since 2026-08), which its
 *   server answers as a 500 (mlx_engine/server/http.py: any other exception) or in-band in a stream;
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
    'Prepared prompt has [\\d,]+ tokens, exceeding the fitted [\\d,]+-token context',
  ].join('|'),
  'i',
);

/**
 * The overflows some servers answer with a 500, each in its exact words (any other 500 is the server failing):
 * - ik_llama.cpp's llama-server: "the request exceeds the available context size, try increasing it", sent
 *   as ERROR_TYPE_SERVER when context shift is off (ikawrakow/ik_llama.cpp, examples/server/server.cpp);
 * - vLLM's engine: "The decoder prompt (length N) is longer than the maximum model length of M."
 *   (`_validate_model_input` in vllm/engine/llm_engine.py and vllm/v1/engine/processor.py), a 400 from
 *   vLLM's own server but a 500 from servers that run the engine behind their own API (Xinference:
 *   `{"detail": "[address=…, pid=…] The decoder prompt …"}`, xorbitsai/inference#3785,
 *   langchain-ai/deepagents#468);
 * - LM Studio's MLX engine, above.
 * Not "Context size has been exceeded." (llama.cpp's llama-server, and LM Studio through it): that 500 says the
 * KV cache filled while decoding, which with parallel slots or a unified KV cache other requests may have
 * caused; another try, or another target, may succeed.
 */
const overflowWordsAt500 = new RegExp(
  [
    '^the request exceeds the available context size',
    'The decoder prompt \\(length \\d+\\) is longer than the maximum model length of \\d+',
    'Prepared prompt has [\\d,]+ tokens, exceeding the fitted [\\d,]+-token context',
  ].join('|'),
);

export function isContextOverflow(status: number, message: string, upstreamType: string | null): boolean {
  if (status === 500) return overflowWordsAt500.test(message);
  if (status !== 400 && status !== 413) return false;
  return upstreamType === 'exceed_context_size_error' || upstreamType === 'context_length_exceeded' || overflowWords.test(message);
}
