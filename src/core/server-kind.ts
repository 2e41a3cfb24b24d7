/**
 * Which inference server answers an `openai-compatible` or `ollama` provider. It decides, per model,
 * whether the server parses tool calls itself (the native lane) and how the prompted lane keeps the
 * reply's special tokens (see DESIGN.md §1 and the provider's `server` setting in §5).
 */
export const serverKinds = ['vllm', 'sglang', 'llama.cpp', 'lmstudio', 'ollama', 'generic'] as const;

export type ServerKind = (typeof serverKinds)[number];
