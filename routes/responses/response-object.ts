/** Builds the `Response` object (streamed lifecycle events and the non-streaming body) with every field the spec requires. */
import type { Diagnostics } from '../../src/core/diagnostics.js';
import type { Usage } from '../../src/core/usage.js';
import { renderDiagnostics } from '../shared/render-diagnostics.js';
import type { ResponseStatus, WireOutputItem, WireResponse, WireResponsesUsage } from './responses-wire.js';

/** Request fields the Response object repeats back, as OpenAI does. */
export type ResponseEcho = {
  instructions: string | null;
  tools: unknown[];
  toolChoice: unknown;
  parallelToolCalls: boolean;
  temperature: number | null;
  topP: number | null;
  maxOutputTokens: number | null;
  previousResponseId: string | null;
  reasoning: Record<string, unknown> | null;
  text: Record<string, unknown>;
  store: boolean;
  user: string | undefined;
  metadata: Record<string, unknown>;
};

export type ResponseIdentity = { id: string; createdAt: number; model: string; echo: ResponseEcho };

export type ResponseState = {
  status: ResponseStatus;
  output: WireOutputItem[];
  usage?: Usage;
  error?: { code: string; message: string };
  incompleteReason?: 'max_output_tokens' | 'content_filter';
  diagnostics?: Diagnostics;
};

/**
 * Undefined when the upstream reported no token counts (usage is never invented). The detail objects
 * are required by the spec and read by Codex, so a count the upstream did not break down reads 0.
 */
export function toResponsesUsage(usage: Usage | undefined): WireResponsesUsage | undefined {
  if (!usage || (usage.inputTokens === undefined && usage.outputTokens === undefined)) return undefined;
  const input = usage.inputTokens ?? 0;
  const output = usage.outputTokens ?? 0;
  const wire: WireResponsesUsage = {
    input_tokens: input,
    input_tokens_details: { cached_tokens: usage.cachedInputTokens ?? 0, cache_write_tokens: usage.cacheWriteInputTokens ?? 0 },
    output_tokens: output,
    output_tokens_details: { reasoning_tokens: usage.reasoningTokens ?? 0 },
    total_tokens: usage.totalTokens ?? input + output,
  };
  // Extension: what the reply cost in USD, when the gateway knows the model's price (SDKs ignore it).
  if (usage.costUsd !== undefined) wire.cost_usd = usage.costUsd;
  return wire;
}

export function buildResponseObject(identity: ResponseIdentity, state: ResponseState): WireResponse {
  const { echo } = identity;
  const finished = state.status === 'completed' || state.status === 'incomplete';
  const response: WireResponse = {
    id: identity.id,
    object: 'response',
    created_at: identity.createdAt,
    status: state.status,
    completed_at: state.status === 'completed' ? Math.floor(Date.now() / 1000) : null,
    error: state.error ?? null,
    incomplete_details: state.incompleteReason ? { reason: state.incompleteReason } : null,
    instructions: echo.instructions,
    max_output_tokens: echo.maxOutputTokens,
    model: identity.model,
    output: state.output,
    parallel_tool_calls: echo.parallelToolCalls,
    previous_response_id: echo.previousResponseId,
    reasoning: echo.reasoning,
    store: echo.store,
    temperature: echo.temperature,
    text: echo.text,
    tool_choice: echo.toolChoice,
    tools: echo.tools,
    top_p: echo.topP,
    truncation: 'disabled',
    metadata: echo.metadata,
  };
  const usage = finished ? toResponsesUsage(state.usage) : undefined;
  if (usage) response.usage = usage;
  if (echo.user !== undefined) response.user = echo.user;
  const diagnostics = renderDiagnostics(state.diagnostics);
  if (diagnostics) response.diagnostics = diagnostics;
  return response;
}
