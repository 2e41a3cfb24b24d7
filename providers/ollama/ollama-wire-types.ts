/**
 * The `/api/chat` request shapes we send (written here rather than taken from the `ollama` package,
 * whose types lag the server: they lack tool-call `id` and `tool_call_id`, and narrow tool parameters
 * to a subset of JSON Schema). See https://github.com/ollama/ollama/blob/main/docs/api.md#generate-a-chat-completion
 */

/** The `options` members the gateway sets (https://github.com/ollama/ollama/blob/main/docs/modelfile.md#valid-parameters-and-values). */
export type OllamaWireOptions = {
  temperature?: number;
  top_p?: number;
  stop?: string[];
  seed?: number;
  num_predict?: number;
  presence_penalty?: number;
  frequency_penalty?: number;
  /** Sampling options Ollama's runner takes beside OpenAI's (a client's vLLM/llama-server-style extras). */
  top_k?: number;
  min_p?: number;
  typical_p?: number;
  repeat_penalty?: number;
  repeat_last_n?: number;
  mirostat?: number;
  mirostat_tau?: number;
  mirostat_eta?: number;
};

export type OllamaWireToolCall = {
  id?: string;
  function: { name: string; arguments: Record<string, unknown> };
};

export type OllamaWireMessage = {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string;
  thinking?: string;
  images?: string[];
  tool_calls?: OllamaWireToolCall[];
  tool_name?: string;
  tool_call_id?: string;
};

export type OllamaWireTool = {
  type: 'function';
  function: { name: string; description?: string; parameters: Record<string, unknown> };
};

export type OllamaThink = boolean | 'low' | 'medium' | 'high';

export type OllamaWireChatRequest = {
  model: string;
  messages: OllamaWireMessage[];
  tools?: OllamaWireTool[];
  format?: 'json' | Record<string, unknown>;
  think?: OllamaThink;
  options?: OllamaWireOptions;
  /** Log probabilities of the reply's tokens (api/types.go ChatRequest, since 0.12.11), returned in each chunk's `logprobs`. */
  logprobs?: boolean;
  /** How many most likely candidates each token position lists (0–20); only with `logprobs`. */
  top_logprobs?: number;
  /**
   * Whether Ollama may fit an over-long chat into the context by dropping its oldest messages and then the
   * middle of the prompt (api/types.go ChatRequest, since 0.12.6; true when absent). The gateway sends
   * false (convert-to-ollama-chat-request.ts), so that an overflow is an error, not a silent loss.
   */
  truncate?: boolean;
  /** NDJSON chunks for streaming clients; one whole reply (shaped like the final chunk) otherwise. */
  stream: boolean;
};
