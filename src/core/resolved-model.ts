/** A request's model after resolution against the configuration. */
import type { ServerKind } from './server-kind.js';

/** How tools reach the model: the provider's own tool API, or written into the prompt. */
export type ToolCallingMode = 'native' | 'prompted';

export type ResolvedModel = {
  /** The id as the client wrote it, e.g. `local/Qwen/Qwen3-8B`. */
  id: string;
  /** The configured provider name (the prefix), e.g. `local`. */
  provider: string;
  /** The provider's kind (`openai`, `ollama`, …): one of the registry's in `providers/index.ts`, which core cannot import. */
  providerType: string;
  /** The model id sent upstream, e.g. `Qwen/Qwen3-8B`. */
  model: string;
  /** Tool-format family used in the prompted lane and by parsers, e.g. `hermes`. */
  family: string;
  /**
   * The family was read from what the server reports this model to be, because neither the config nor the
   * served name names one (vLLM's `root` behind `--served-model-name`, llama-server's `model_path`, …): the
   * name that named it, e.g. `Qwen3-8B`.
   */
  familyFromServer?: string;
  toolCalling: ToolCallingMode;
  /**
   * The chat template opens the reasoning block in the generation prompt, so the reply begins inside
   * it: unless the request turns thinking off (`by-default`), or only when it turns it on (`when-enabled`).
   */
  opensInReasoning?: ReasoningOpening;
  /**
   * The inference server behind an `openai-compatible` or `ollama` provider, as configured (`server`)
   * or detected; absent for first-party APIs and while it is not known.
   */
  server?: ServerKind;
};

export type ReasoningOpening = 'by-default' | 'when-enabled';
