/** A validated Anthropic Messages body (plus its headers) → the neutral ChatInput and the route's settings. */
import type { IncomingHttpHeaders } from 'node:http';
import type { ChatInput } from '../../src/core/chat-request.js';
import { invalidRequest } from '../../src/core/gateway-error.js';
import type { Warning } from '../../src/core/warning.js';
import type { BodyValidators } from '../shared/body-validator.js';
import type { RouteToolCaches } from '../shared/memoise-known-list.js';
import { countTokensRequestSchema, messagesRequestSchema, type ConversationBody, type MessagesBody } from './messages-request-schema.js';
import { parseAnthropicMessages } from './parse-anthropic-messages.js';
import { parseAnthropicToolChoice, parseAnthropicTools } from './parse-anthropic-tools.js';

export type ParsedMessagesRequest = {
  input: ChatInput;
  stream: boolean;
  /** Notes about the request that the pipeline cannot see (dropped tools, unsupported fields). */
  warnings: Warning[];
};

/** A count_tokens body: the conversation a Messages body carries, without the generation settings. */
export function validateCountTokensBody(raw: unknown, validators: BodyValidators, caches?: RouteToolCaches): ConversationBody {
  return validators.for<ConversationBody>(countTokensRequestSchema)(raw, caches);
}

/** The headers the anthropic provider forwards upstream (others ignore them). */
const forwardedHeaderNames = ['anthropic-beta', 'anthropic-version'] as const;

function forwardHeadersOf(headers: IncomingHttpHeaders): Record<string, string> | undefined {
  const forward: Record<string, string> = {};
  for (const name of forwardedHeaderNames) {
    const value = headers[name];
    if (typeof value === 'string') forward[name] = value;
  }
  return Object.keys(forward).length ? forward : undefined;
}

/**
 * Anthropic's thinking switch as the neutral effort, from its token budget. `adaptive` leaves the depth
 * to the model, so it asks for no neutral effort (sending reasoning_effort to a non-reasoning OpenAI model
 * fails): it travels as `claudeThinking`, for Claude upstreams.
 * https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking
 */
function reasoningEffortOf(thinking: ConversationBody['thinking']): string | undefined {
  if (thinking?.type !== 'enabled') return undefined;
  const budget = thinking.budget_tokens ?? 0;
  if (budget <= 2048) return 'low';
  return budget <= 8192 ? 'medium' : 'high';
}

/** The conversation (system, messages, tools, tool_choice) into `input`; shared with count_tokens. */
export function parseConversation(body: ConversationBody, warnings: Warning[], caches?: RouteToolCaches): ChatInput {
  const input: ChatInput = { model: body.model, messages: parseAnthropicMessages(body.system, body.messages, warnings) };
  const tools = parseAnthropicTools(body.tools ?? [], warnings, caches);
  if (tools.length) input.tools = tools;
  const { toolChoice, parallelToolCalls } = parseAnthropicToolChoice(body.tool_choice);
  // Checked here to say it in Anthropic's terms (`any`, not the neutral `required`).
  if ((toolChoice?.type === 'required' || toolChoice?.type === 'tool') && tools.length === 0) {
    throw invalidRequest(
      `tool_choice '${body.tool_choice?.type ?? ''}' needs at least one custom tool in 'tools' (server tools are not offered to this model).`,
      'tool_choice',
    );
  }
  if (toolChoice) input.toolChoice = toolChoice;
  if (parallelToolCalls !== undefined) input.parallelToolCalls = parallelToolCalls;
  return input;
}

/**
 * Fields only Claude's own API takes, and that the gateway can pass on to it untouched: context editing
 * (https://platform.claude.com/docs/en/build-with-claude/context-editing) and the service tier. Other
 * upstreams get a warning for each (src/pipeline/claude-only-fields.ts).
 */
const claudeOnlyFields = ['context_management', 'service_tier'] as const;

/**
 * Fields for Anthropic's server-side tools, which the gateway never offers (it drops server tools, see
 * parse-anthropic-tools.ts, and reads no server tool blocks back): a warning on every upstream.
 */
const serverToolFields = ['container', 'mcp_servers'] as const;

function claudeOnlyExtras(body: MessagesBody, warnings: Warning[]): Record<string, unknown> | undefined {
  const record = body as Record<string, unknown>;
  for (const name of serverToolFields)
    if (record[name] !== undefined && record[name] !== null)
      warnings.push({
        code: 'unsupported-parameter',
        message: `Parameter '${name}' is for Anthropic's server-side tools, which the gateway does not offer; it was ignored.`,
      });
  let extras: Record<string, unknown> | undefined;
  for (const name of claudeOnlyFields) if (record[name] !== undefined && record[name] !== null) (extras ??= {})[name] = record[name];
  return extras;
}

export function parseMessagesRequest(
  raw: unknown,
  headers: IncomingHttpHeaders,
  validators: BodyValidators,
  caches?: RouteToolCaches,
): ParsedMessagesRequest {
  const body = validators.for<MessagesBody>(messagesRequestSchema)(raw, caches);
  const warnings: Warning[] = [];
  const input = parseConversation(body, warnings, caches);
  input.maxOutputTokens = body.max_tokens;
  if (body.temperature !== undefined) input.temperature = body.temperature;
  if (body.top_p !== undefined) input.topP = body.top_p;
  // Anthropic's top_k: sent natively to Anthropic, Gemini and Ollama, and as the sampling extra vLLM, SGLang
  // and llama-server take; OpenAI, which has none, gets a warning instead.
  if (body.top_k !== undefined) input.openaiExtras = { ...input.openaiExtras, top_k: body.top_k };
  if (body.stop_sequences?.length) input.stop = body.stop_sequences;
  if (typeof body.metadata?.user_id === 'string') input.user = body.metadata.user_id;
  const reasoningEffort = reasoningEffortOf(body.thinking);
  if (reasoningEffort !== undefined) input.reasoningEffort = reasoningEffort;
  // Not an effort: nothing is sent upstream for it, but a reply is then not assumed to begin in reasoning.
  if (body.thinking?.type === 'disabled') input.thinkingDisabled = true;
  const effort = body.output_config?.effort;
  if (body.thinking?.type === 'adaptive' || effort !== undefined)
    input.claudeThinking = { adaptive: body.thinking?.type === 'adaptive', ...(effort !== undefined ? { effort } : {}) };
  const format = body.output_config?.format ?? body.output_format;
  // Anthropic's format has no name; `response` names it in diagnostics and prompts.
  if (format) input.responseFormat = { type: 'json_schema', name: 'response', schema: format.schema ?? {}, strict: true };
  const extras = claudeOnlyExtras(body, warnings);
  if (extras) input.anthropicExtras = extras;
  const forwardHeaders = forwardHeadersOf(headers);
  if (forwardHeaders) input.forwardHeaders = forwardHeaders;
  return { input, stream: body.stream === true, warnings };
}
