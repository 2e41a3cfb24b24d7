/** Builds the Anthropic Messages body for a neutral ChatRequest, with the warnings it produced. */
import type { ProviderConfig } from '../../src/config/config-types.js';
import type { ChatRequest, GenerationOptions, Warning } from '../../src/core/index.js';
import { grammarFormatSchema, grammarToolSchema } from '../../src/core/grammar-schema-subset.js';
import { StrictSchemaBudget } from '../../src/core/strict-schema-limits.js';
import type { AnthropicCustomTool, AnthropicDefinedToolBody, AnthropicMessagesBody, AnthropicTool } from './anthropic-messages-body.js';
import { cached, convertToAnthropicMessages } from './convert-to-anthropic-messages.js';
import { changesSampling, claudeSamplingFields } from './claude-sampling.js';
import { takesStrictTools } from './claude-version-rules.js';
import { mapAnthropicToolChoice } from './map-anthropic-tool-choice.js';
import { anthropicToolTurnLacksThinking, mapReasoningEffortToThinking } from './map-reasoning-effort-to-thinking.js';

/** The body, the betas it needs in `anthropic-beta`, and the warnings it produced. */
export type AnthropicRequestPlan = { body: AnthropicMessagesBody; betas: string[]; warnings: Warning[] };

/**
 * Context management is a beta: without its `anthropic-beta`, Anthropic answers 400 "context_management: Extra
 * inputs are not permitted" (anthropics/claude-code#14135). Context editing's edits (`clear_tool_uses_…`,
 * `clear_thinking_…`) take `context-management-2025-06-27`
 * (https://platform.claude.com/docs/en/build-with-claude/context-editing), compaction's (`compact_…`)
 * `compact-2026-01-12` (as BerriAI/litellm#27593 adds it). A client that sent its own keeps it too.
 */
function contextManagementBetas(contextManagement: unknown): string[] {
  const edits = (contextManagement as { edits?: unknown } | null)?.edits;
  const types = Array.isArray(edits) ? edits.map((edit) => String((edit as { type?: unknown } | null)?.type ?? '')) : [];
  const betas = types.some((type) => type.startsWith('compact_')) ? ['compact-2026-01-12'] : [];
  if (types.length === 0 || types.some((type) => !type.startsWith('compact_'))) betas.push('context-management-2025-06-27');
  return betas;
}

/** Used when neither the request nor the provider config gives `max_tokens`. */
export const fallbackMaxTokens = 4096;

/** Neutral options Anthropic's Messages API has no field for, with the wire name clients used. */
const unsupportedOptions: readonly { key: keyof GenerationOptions; name: string }[] = [
  { key: 'seed', name: 'seed' },
  { key: 'presencePenalty', name: 'presence_penalty' },
  { key: 'frequencyPenalty', name: 'frequency_penalty' },
];

function unsupportedParameter(name: string, provider: string): Warning {
  return {
    code: 'unsupported-parameter',
    message: `Parameter '${name}' is not supported by Anthropic provider '${provider}' and was ignored.`,
  };
}

function collectUnsupportedWarnings(request: ChatRequest, provider: string): Warning[] {
  const warnings: Warning[] = [];
  for (const { key, name } of unsupportedOptions) {
    // null means "given as null": nothing to honour, so nothing to warn about.
    if (request[key] === undefined || request[key] === null) continue;
    warnings.push(unsupportedParameter(name, provider));
  }
  for (const name of Object.keys(request.openaiExtras ?? {})) if (name !== 'top_k') warnings.push(unsupportedParameter(name, provider));
  return warnings;
}

type MaxTokens = { value: number; defaulted: boolean };

/** `max_tokens` is required by Anthropic (https://docs.anthropic.com/en/api/messages#body-max-tokens). */
function resolveMaxTokens(request: ChatRequest, config: ProviderConfig): MaxTokens {
  if (request.maxOutputTokens !== undefined && request.maxOutputTokens !== null)
    return { value: request.maxOutputTokens, defaulted: false };
  return { value: config.defaultMaxTokens ?? fallbackMaxTokens, defaulted: true };
}

/** Says which default was used, and the total when thinking's budget went on top of it. */
function defaultedMaxTokensWarning(config: ProviderConfig, answerTokens: number, total: number): Warning {
  const source = config.defaultMaxTokens !== undefined ? `defaultMaxTokens of provider '${config.name}'` : 'the gateway default';
  const thinking = total !== answerTokens ? ` Thinking (reasoning_effort) adds its budget on top: max_tokens ${total}.` : '';
  return {
    code: 'max-tokens-defaulted',
    message: `Anthropic requires max_tokens and the request gave none; used ${answerTokens} (${source}).${thinking}`,
  };
}

export type AnthropicBodyOptions = {
  stream: boolean;
  /** Why strict tools are not sent though the model has them: the upstream refused them (strict-tools-refused.ts). */
  strictRefused?: string;
  /** False where the host takes no URL source for a file (Vertex AI): such files are left out, with a warning. */
  urlSources?: boolean;
};

export function buildAnthropicRequestBody(
  request: ChatRequest,
  config: ProviderConfig,
  options: AnthropicBodyOptions,
): AnthropicRequestPlan {
  const conversation = convertToAnthropicMessages(request.messages, { urlSources: options.urlSources ?? true });
  const warnings: Warning[] = [];
  const maxTokens = resolveMaxTokens(request, config);
  const body: AnthropicMessagesBody = {
    model: request.model.model,
    max_tokens: maxTokens.value,
    messages: conversation.messages,
    stream: options.stream,
  };
  if (conversation.system !== undefined) body.system = conversation.system;
  // json_schema goes natively (output_config.format), narrowed to what Claude's grammar compiles; json_object has
  // no Anthropic form, nor has a schema the narrowing cannot keep faithful: the pipeline writes those into the prompt.
  const format = request.responseFormat;
  const narrowedFormat =
    format?.type === 'json_schema' && format.schema
      ? grammarFormatSchema({ ...format, schema: format.schema }, `Anthropic provider '${config.name}'`)
      : undefined;
  // One request's strict schemas share Claude's limits: the format is counted first (the pipeline sent it to
  // the prompt when it alone crosses one), then each strict tool in the client's order.
  const strictBudget = new StrictSchemaBudget();
  if (narrowedFormat) strictBudget.admit(narrowedFormat.schema, 'format');
  if (request.tools && request.tools.length > 0) {
    const upstream = `Anthropic provider '${config.name}'`;
    const modelGap = takesStrictTools(request.model.model)
      ? options.strictRefused
      : `${request.model.model} has no strict tool use (Claude 4.5 and later)`;
    body.tools = request.tools.map((tool): AnthropicTool => {
      // Claude's own tools (bash, text editor, computer, memory) go as the client defined them, so the model
      // uses the tool it was trained on; their input is Anthropic's, with no schema to send or constrain.
      if (tool.anthropicTool) return cached<AnthropicDefinedToolBody>({ ...tool.anthropicTool, name: tool.name }, tool.cache);
      const grammar = grammarToolSchema(tool, upstream, modelGap, strictBudget);
      warnings.push(...grammar.warnings);
      return cached<AnthropicCustomTool>(
        {
          name: tool.name,
          ...(tool.description === undefined ? {} : { description: tool.description }),
          input_schema: grammar.schema,
          ...(grammar.strict ? { strict: true } : {}),
        },
        tool.cache,
      );
    });
    // tool_choice without tools is rejected upstream, so it only travels with them.
    const toolChoice = mapAnthropicToolChoice(request.toolChoice, request.parallelToolCalls);
    if (toolChoice) body.tool_choice = toolChoice;
  }
  const sampling = claudeSamplingFields(request, config.name, warnings);
  if (sampling.temperature !== undefined) body.temperature = sampling.temperature;
  if (sampling.topP !== undefined) body.top_p = sampling.topP;
  if (sampling.topK !== undefined) body.top_k = sampling.topK;
  if (request.stop !== undefined && request.stop !== null) body.stop_sequences = request.stop;
  if (request.user !== undefined && request.user !== null) body.metadata = { user_id: request.user };
  const thinking = mapReasoningEffortToThinking(
    request,
    {
      maxTokens: body.max_tokens,
      maxTokensDefaulted: maxTokens.defaulted,
      forcesToolCall: body.tool_choice?.type === 'any' || body.tool_choice?.type === 'tool',
      changesSampling: changesSampling(sampling),
      lastToolTurnLacksThinking: anthropicToolTurnLacksThinking(body.messages),
    },
    config.name,
  );
  if (thinking.thinking) body.thinking = thinking.thinking;
  if (narrowedFormat) {
    body.output_config = { format: { type: 'json_schema', schema: narrowedFormat.schema } };
    warnings.push(...narrowedFormat.warnings);
  }
  if (thinking.effort) body.output_config = { ...body.output_config, effort: thinking.effort };
  if (thinking.maxTokens !== undefined) body.max_tokens = thinking.maxTokens;
  if (maxTokens.defaulted) warnings.push(defaultedMaxTokensWarning(config, maxTokens.value, body.max_tokens));
  warnings.push(...conversation.warnings, ...thinking.warnings, ...collectUnsupportedWarnings(request, config.name));
  // Claude-only fields a Messages client sent go as sent (other kinds never see them: src/pipeline/claude-only-fields.ts).
  const extras = request.anthropicExtras;
  if (extras?.context_management !== undefined) body.context_management = extras.context_management;
  if (extras?.service_tier !== undefined) body.service_tier = extras.service_tier;
  const betas = body.context_management === undefined ? [] : contextManagementBetas(body.context_management);
  return { body, betas, warnings };
}
