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
   * Prompted lane: the tools written into the system prompt (the upstream sees them as text only).
   * Adapters of real upstreams ignore it; the scripted provider reads it to play a model that saw them.
   */
  promptedTools?: ToolDefinition[];
  /**
   * Prompted lane: the family's markers that are special tokens in the model's tokenizer. An adapter
   * asks its server to keep them in the reply (vLLM `skip_special_tokens: false`, llama-server
   * `preserved_tokens`), since the parser cannot find a call whose markers were removed.
   */
  keepSpecialTokens?: readonly string[];
  /**
   * Prompted lane: the family's encoder shows earlier turns' reasoning (ToolFormat.thinkingWithTools), so
   * an adapter whose server takes it sends each assistant turn's reasoning parts with the turn.
   */
  replayReasoning?: boolean;
  /** Prompted lane: the tool_choice the prompt was written for (read by the scripted provider, like promptedTools). */
  promptedToolChoice?: ToolChoice;
  /**
   * OpenAI wire fields that have no neutral meaning (`logit_bias`, `logprobs`, `metadata`, `store`,
   * `service_tier`, …). OpenAI-kind providers forward them verbatim; others turn each into a warning.
   */
  openaiExtras?: Record<string, unknown>;
  /** Client headers meant for the upstream (e.g. `anthropic-beta`), already filtered by the route. */
  forwardHeaders?: Record<string, string>;
  /** The client turned thinking off where no effort value says so (Anthropic `thinking: {type: "disabled"}`). */
  thinkingDisabled?: boolean;
  /**
   * Anthropic's adaptive thinking and effort as a Messages client sent them (`thinking: {type: "adaptive"}`,
   * `output_config.effort`; Claude Code sends both by default): the model decides how much to think.
   * Claude upstreams take them; others are sent nothing for them, since a reasoning_effort sent to a
   * model without reasoning fails.
   */
  claudeThinking?: { adaptive: boolean; effort?: string };
  /**
   * Anthropic Messages fields that only Claude's own API has (`context_management`, `service_tier`), as the
   * client sent them: the anthropic kind forwards them verbatim; for every other kind the pipeline turns each
   * into an `unsupported-parameter` warning (src/pipeline/claude-only-fields.ts).
   */
  anthropicExtras?: Record<string, unknown>;
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

/** Every member of T, optional ones included: leaving one out of such a literal is a compile error. */
type EveryMember<T> = { [K in keyof Required<T>]: T[K] };

/**
 * A ChatRequest from a route's input (or another request), member by member, with `messages`
 * replaced when given. Spreads and rest copies of these objects cost 1–2 µs each on the hot path
 * (V8 copies them key by key into a new shape); a literal of known shape costs next to nothing, and
 * `EveryMember` keeps it complete when ChatRequest grows. Absent members become `undefined`.
 */
export function chatRequestFrom(
  source: Omit<ChatRequest, 'model'>,
  model: ResolvedModel,
  messages: Message[] = source.messages,
): ChatRequest {
  const request: EveryMember<ChatRequest> = {
    model,
    messages,
    tools: source.tools,
    toolChoice: source.toolChoice,
    parallelToolCalls: source.parallelToolCalls,
    promptedTools: source.promptedTools,
    promptedToolChoice: source.promptedToolChoice,
    keepSpecialTokens: source.keepSpecialTokens,
    replayReasoning: source.replayReasoning,
    maxOutputTokens: source.maxOutputTokens,
    temperature: source.temperature,
    topP: source.topP,
    stop: source.stop,
    seed: source.seed,
    presencePenalty: source.presencePenalty,
    frequencyPenalty: source.frequencyPenalty,
    responseFormat: source.responseFormat,
    reasoningEffort: source.reasoningEffort,
    user: source.user,
    openaiExtras: source.openaiExtras,
    forwardHeaders: source.forwardHeaders,
    thinkingDisabled: source.thinkingDisabled,
    claudeThinking: source.claudeThinking,
    anthropicExtras: source.anthropicExtras,
  };
  return request as ChatRequest;
}
