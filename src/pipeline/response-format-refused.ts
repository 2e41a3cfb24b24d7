/**
 * Whether an upstream error is the upstream refusing the native form of a JSON response format, which
 * the gateway can enforce itself (the schema written into the prompt, the reply checked). Only a 4xx
 * whose message names the field the adapter sent counts: the request's only use of these fields is the
 * format, so an error about them is about it. Seen in the wild:
 * - Claude on Vertex AI where `output_config` is not enabled (the organization policy
 *   `constraints/vertexai.allowedPartnerModelFeatures`, or a model Vertex does not list for it), and
 *   Claude models before structured outputs: a 400 naming `output_config` / `output_format`;
 * - OpenAI-compatible servers without json_schema support: a 400 naming `response_format`;
 * - Gemini models without a JSON schema mode: a 400 naming `responseJsonSchema` / `responseSchema`;
 * - Bedrock models without structured outputs: a ValidationException "This model doesn't support the
 *   outputConfig field. Remove outputConfig and try again." (Nova, Llama 4, Pixtral), and Claude models whose
 *   Converse layer passes it on unaccepted: "The model returned the following errors: output_config.format:
 *   Extra inputs are not permitted".
 */
import { GatewayError } from '../core/gateway-error.js';

const formatFields = /output_config|outputConfig|output_format|response_format|responseJsonSchema|responseSchema|json_schema/;

/**
 * A 400 about the client's schema, not the upstream's support for the field: OpenAI's "Invalid schema for
 * response_format 'x': In context=(), 'additionalProperties' is required to be supplied and to be false."
 * (strict mode's rules), a message on the schema's own path (`output_config.format.schema: …`). That is the
 * client's to fix: taken as a refusal, one bad schema would quietly turn a strict request into a prompted
 * one and take the native form from every later request for the model.
 */
const schemaProblem = /invalid (json )?schema|format\.schema\b|\bschema\b[^.]*\binvalid\b/i;

export function isResponseFormatRefusal(error: unknown): boolean {
  if (!GatewayError.isInstance(error) || error.upstreamStatus === undefined) return false;
  if (error.upstreamStatus !== 400 && error.upstreamStatus !== 422) return false;
  return formatFields.test(error.message) && !schemaProblem.test(error.message);
}
