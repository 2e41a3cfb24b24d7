/**
 * Which thinking switch a Claude model takes. Claude 4.6 brought adaptive thinking (`thinking: {type:
 * "adaptive"}`, its depth steered by `output_config.effort`) and deprecated the budget form; Claude Opus
 * 4.7, the Claude 5 models and Mythos take only the adaptive one and refuse `thinking.type: "enabled"` with a
 * 400; Claude 4.5 and earlier (Haiku 4.5 included) know only the budget form.
 * https://platform.claude.com/docs/en/build-with-claude/adaptive-thinking
 * https://docs.aws.amazon.com/bedrock/latest/userguide/claude-messages-adaptive-thinking.html
 */

/** The first version with adaptive thinking: 4.6, as major × 100 + minor. */
const firstAdaptiveVersion = 406;

/** Families named without a version that only think adaptively (`claude-mythos-preview`). */
const adaptiveOnlyFamilies = /\b(mythos|fable)\b/;

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
  const version = claudeVersion(model);
  if (version === undefined) return adaptiveOnlyFamilies.test(model.toLowerCase());
  return version >= firstAdaptiveVersion;
}
