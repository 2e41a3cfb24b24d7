/**
 * Whether an upstream error is Claude's host refusing strict tool use (`tools[].strict`), which the gateway
 * can do without: the tools go again without `strict`, each with a `strict-schema-not-guaranteed` warning,
 * and the model is remembered (`server.refusalMemoryMs`) so later requests skip the refused attempt. Seen:
 * - Claude on Vertex AI without structured outputs: Vertex takes `tools[].strict` only for the models it
 *   lists, and only once the organization policy `constraints/vertexai.allowedPartnerModelFeatures` allows
 *   `structured_outputs`, which it does not by default
 *   (https://docs.cloud.google.com/vertex-ai/generative-ai/docs/partner-models/claude/structured_outputs);
 *   otherwise a 400 `tools.0.custom.strict: Extra inputs are not permitted` (quoted in vercel/ai#13353), or
 *   an error naming the feature, `publishers/anthropic/models/<model>:structured_outputs` (vercel/ai#20717);
 * - a Claude model before structured outputs that the version rules missed: `'<model>' does not support
 *   strict tools.` (eigent-ai/eigent#1649).
 * Only a 4xx in those words counts: a strict schema Claude cannot compile is the client's to fix.
 */
import { GatewayError } from '../../src/core/gateway-error.js';

const refusals: readonly RegExp[] = [
  /tools\.\d+\.(?:custom\.)?strict: Extra inputs/,
  /:structured_outputs\b/,
  /does not support strict tools/,
];

export function isStrictToolsRefusal(error: unknown): boolean {
  if (!GatewayError.isInstance(error) || error.upstreamStatus === undefined) return false;
  if (error.upstreamStatus < 400 || error.upstreamStatus >= 500) return false;
  return refusals.some((pattern) => pattern.test(error.message));
}
