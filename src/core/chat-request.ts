/** The provider-neutral chat request every inbound API translates into. */
import type { Message } from './message.js';
import type { ResolvedModel } from './resolved-model.js';
import type { ToolChoice, ToolDefinition } from './tool-definition.js';
import type { Warning } from './warning.js';

export type ResponseFormat =
  | { type: 'text' }
  | { type: 'json_object' }
  | { type: 'json_schema'; name: string; schema?: Record<string, unknown>; description?: string; strict?: boolean | null };

/**
 * Generation options. `undefined` means "not given" and is never sent upstream; `null`, `0` and
 * `false` are values and are forwarded exactly as the client gave them.
 */
export type GenerationOptions = {
  maxOutputTokens?: number | null;
  temperature?: number | null;
  topP?: number | null;
  stop?: string[] | null;
  seed?: number | null;
  presencePenalty?: number | null;
  frequencyPenalty?: number | null;
  responseFormat?: ResponseFormat | null;
  /** OpenAI `reasoning_effort` (`minimal`…`high`); mapped to thinking budgets where a provider has them. */
  reasoningEffort?: string | null;
  user?: string | null;
};

export type ChatRequest = GenerationOptions & {
  model: ResolvedModel;
  messages: Message[];
  tools?: ToolDefinition[];
  toolChoice?: ToolChoice;
  parallelToolCalls?: boolean | null;
  /**
   * OpenAI wire fields that have no neutral meaning (`logit_bias`, `logprobs`, `metadata`, `store`,
   * `service_tier`, …). OpenAI-kind providers forward them verbatim; others turn each into a warning.
   */
  openaiExtras?: Record<string, unknown>;
  /** Client headers meant for the upstream (e.g. `anthropic-beta`), already filtered by the route. */
  forwardHeaders?: Record<string, string>;
};

/** A chat request before its model string is resolved (what routes build). */
export type ChatInput = Omit<ChatRequest, 'model'> & {
  /** The model string from the body, e.g. `local/Qwen/Qwen3-8B`. */
  model: string;
  /** Set by `POST /{provider}/v1/...`: the provider is fixed and `model` is taken whole. */
  provider?: string;
  /** What the route already knows it could not honour (dropped tools, ignored fields): reported in diagnostics. */
  warnings?: Warning[];
};
