/**
 * A client's betas (`anthropic-beta`) as Bedrock takes them for Claude: in the body, `anthropic_beta: [...]`
 * (https://docs.aws.amazon.com/bedrock/latest/userguide/model-parameters-anthropic-claude-messages-request-response.html),
 * which Converse passes on through `additionalModelRequestFields` like Claude's other fields. Those Bedrock
 * refuses are left out with a warning each (providers/anthropic/claude-platform-betas.ts); another model has
 * no betas, so every one is left out, with a warning.
 */
import type { ConverseCommandInput } from '@aws-sdk/client-bedrock-runtime';
import type { Warning } from '../../src/core/warning.js';
import { betaLeftOutWarning, isBetaLeftOutWarning, type PlatformBetas } from '../anthropic/claude-platform-betas.js';

/** Sets the betas of `input` for this attempt, and returns those sent. */
export function withClaudeBetas(
  input: ConverseCommandInput,
  clientBetas: readonly string[],
  options: { claude: boolean; betas: PlatformBetas; warnings: Warning[] },
): string[] {
  const { warnings } = options;
  // An attempt sent again replaces the warnings of the attempt before.
  const earlier = warnings.filter(isBetaLeftOutWarning);
  for (const warning of earlier) warnings.splice(warnings.indexOf(warning), 1);
  if (clientBetas.length === 0) return [];
  const model = input.modelId ?? '';
  const sent = options.claude ? options.betas.sendable(model, clientBetas, warnings) : [];
  if (!options.claude)
    for (const beta of clientBetas)
      warnings.push(betaLeftOutWarning(beta, `Bedrock model '${model}' is not Claude, and betas are Claude's`));
  const fields = { ...(input.additionalModelRequestFields as Record<string, unknown> | undefined) };
  delete fields.anthropic_beta;
  if (sent.length > 0) fields.anthropic_beta = sent;
  input.additionalModelRequestFields =
    Object.keys(fields).length > 0 ? (fields as ConverseCommandInput['additionalModelRequestFields']) : undefined;
  if (input.additionalModelRequestFields === undefined) delete input.additionalModelRequestFields;
  return sent;
}
