/**
 * What a Claude model accepts, by its version: the thinking switch and the sampling fields.
 *
 * Thinking: Claude 4.6 brought adaptive thinking (`thinking: {type:
 * "adaptive"}`, its depth steered by `output_config.effort`) and deprecated the budget form; Claude Opus
 * 4.7, the Claude 5 models and Mythos take only the adaptive one and refuse `thinking.type: "enabled"` with a
 * 400; Claude 4.5 and earlier (Haiku 4.5 included) know only the budget form.
 * https://platform.claude.com/docs/en/build-with-claude/adaptive-thinking
 * https://docs.aws.amazon.com/bedrock/latest/userguide/claude-messages-adaptive-thinking.html
 *
 * Sampling: Claude 4 models refuse `temperature` and `top_p` together ("`temperature` and `top_p` cannot both
 * be specified for this model. Please use only one.", on Anthropic and Bedrock alike); Claude Opus 4.7 and
 * later refuse each of `temperature`, `top_p` and `top_k` ("`temperature` is deprecated for this model.",
 * https://platform.claude.com/docs/en/about-claude/models/migration-guide#migrating-to-claude-opus-4-7).
 *
 * Strict tools: structured outputs (`tools[].strict`, `output_config.format`) are generally available "for Claude
 * Opus 4.6, Claude Sonnet 4.6, Claude Sonnet 4.5, Claude Opus 4.5 and Claude Haiku 4.5" and the models after them
 * (https://platform.claude.com/docs/en/build-with-claude/structured-outputs); an earlier model answers a strict
 * tool with a 400 "'claude-sonnet-4-20250514' does not support strict tools." (quoted in eigent-ai/eigent#1649).
 * Bedrock's Converse takes `toolSpec.strict` for Claude 4.5 and 4.6 only: Claude Opus 4.7 and later (Opus 4.8,
 * Sonnet 5, Fable 5) and Sonnet 4 refuse it, "The model returned the following errors: tools.0.custom.strict: Extra
 * inputs are not permitted" (BerriAI/litellm#31582, #32455 and #33196, each reproduced against Bedrock).
 */

/** The first version with adaptive thinking: 4.6, as major × 100 + minor. */
const firstAdaptiveVersion = 406;
/** The first version that takes one of temperature and top_p, not both. */
const firstOneSamplerVersion = 400;
/** The first version without sampling fields. */
const firstUnsampledVersion = 407;

/** The first version with structured outputs, strict tools among them. */
const firstStructuredOutputsVersion = 405;
/** The first version whose Converse route refuses `toolSpec.strict` (Claude Opus 4.7). */
const firstConverseWithoutStrictVersion = 407;

/** Families named without a version that came after Claude Opus 4.7 (`claude-mythos-preview`). */
const laterFamilies = /\b(mythos|fable)\b/;

/**
 * The version in a Claude model id, wherever the provider puts the id: `claude-opus-4-7`,
 * `claude-3-7-sonnet-20250219`, `claude-haiku-4-5-20251001`, Bedrock's `us.anthropic.claude-opus-4-6-v1`,
 * Vertex AI's `claude-sonnet-4-5@20250929`. The first number of one or two digits is the major version and
 * one right after it the minor; an eight-digit date is neither.
 */
function claudeVersion(model: string): number | undefined {
  const start = model.toLowerCase().indexOf('claude');
  if (start === -1) return undefined;
  const parts = model.slice(start).split(/[-@:.]/);
  const majorAt = parts.findIndex((part) => /^\d{1,2}$/.test(part));
  if (majorAt === -1) return undefined;
  const minor = parts[majorAt + 1];
  return Number(parts[majorAt]) * 100 + (minor !== undefined && /^\d{1,2}$/.test(minor) ? Number(minor) : 0);
}

/** Whether the model takes `thinking: {type: "adaptive"}` (preferred where both forms work). */
export function takesAdaptiveThinking(model: string): boolean {
  return atLeast(model, firstAdaptiveVersion);
}

/** Which of the sampling fields the model takes: all, one of temperature and top_p, or none. */
export type ClaudeSampling = 'all' | 'temperature-or-top-p' | 'none';

export function claudeSampling(model: string): ClaudeSampling {
  if (atLeast(model, firstUnsampledVersion)) return 'none';
  return atLeast(model, firstOneSamplerVersion) ? 'temperature-or-top-p' : 'all';
}

/** Whether the Anthropic API (and Claude on Vertex AI) takes `strict: true` on this model's tools. */
export function takesStrictTools(model: string): boolean {
  return atLeast(model, firstStructuredOutputsVersion);
}

/** Whether Bedrock's Converse takes `toolSpec.strict` for this Claude model: 4.5 and 4.6, not Opus 4.7 or later. */
export function takesConverseStrictTools(model: string): boolean {
  return atLeast(model, firstStructuredOutputsVersion) && !atLeast(model, firstConverseWithoutStrictVersion);
}

/** The model is this version or later; a name without a version is, when it names a later family. */
function atLeast(model: string, version: number): boolean {
  const own = claudeVersion(model);
  return own === undefined ? laterFamilies.test(model.toLowerCase()) : own >= version;
}
