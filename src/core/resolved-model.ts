/** A request's model after resolution against the configuration. */

export type ProviderType = 'openai' | 'openai-compatible' | 'anthropic' | 'ollama' | 'scripted';

/** How tools reach the model: the provider's own tool API, or written into the prompt. */
export type ToolCallingMode = 'native' | 'prompted';

export type ResolvedModel = {
  /** The id as the client wrote it, e.g. `local/Qwen/Qwen3-8B`. */
  id: string;
  /** The configured provider name (the prefix), e.g. `local`. */
  provider: string;
  providerType: ProviderType;
  /** The model id sent upstream, e.g. `Qwen/Qwen3-8B`. */
  model: string;
  /** Tool-format family used in the prompted lane and by parsers, e.g. `hermes`. */
  family: string;
  toolCalling: ToolCallingMode;
  /**
   * The chat template opens the reasoning block in the generation prompt, so the reply begins inside
   * it: unless the request turns thinking off (`by-default`), or only when it turns it on (`when-enabled`).
   */
  opensInReasoning?: ReasoningOpening;
};

export type ReasoningOpening = 'by-default' | 'when-enabled';
