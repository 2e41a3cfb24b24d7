/**
 * Whether an upstream error is the upstream refusing the native form of a JSON response format, which
 * the gateway can enforce itself (the schema written into the prompt, the reply checked). Only a 4xx
 * whose message names the field the adapter sent counts: the request's only use of these fields is the
 * format, so an error about them is about it. Seen in the wild:
 * - Claude on Vertex AI where `output_config` is not enabled (the organization policy
 *   `constraints/vertexai.allowedPartnerModelFeatures`, or a model Vertex does not list for it), and
 *   Claude models before structured outputs: a 400 naming `output_config` / `output_format`;
 * - OpenAI-compatible servers without json_schema support: a 400 naming `response_format`;
 * - llama-server builds before `json_schema` formats (ggml-org/llama.cpp#10732): "response_format type must be
 *   one of \"text\" or \"json_object\", but got: json_schema", thrown from its request parser and answered by the
 *   server's exception handler as a 500 (the one 5xx taken as a refusal, in these words only);
 * - Ollama before 0.5.0, whose `format` was a string ("json"): a schema there fails to bind, a 400 "json: cannot
 *   unmarshal object into Go struct field ChatRequest.format of type string";
 * - Gemini models without a JSON schema mode: a 400 naming `responseJsonSchema` / `responseSchema`;
 * - Bedrock models without structured outputs: a ValidationException "This model doesn't support the
 *   outputConfig field. Remove outputConfig and try again." (Nova, Llama 4, Pixtral), and Claude models whose
 *   Converse layer passes it on unaccepted: "The model returned the following errors: output_config.format:
 *   Extra inputs are not permitted";
 * - Claude on Vertex AI where the organization policy leaves the model's `structured_outputs` out, in the policy's
 *   words, which name the feature and not the field: "Organization Policy constraint
 *   constraints/vertexai.allowedPartnerModelFeatures violated for `projects/N` attempting to use a disallowed
 *   feature structured_outputs for Partner model claude-opus-4-6. … by adding
 *   `publishers/anthropic/models/claude-opus-4-6:structured_outputs` to the allowed values." (a 400
 *   FAILED_PRECONDITION; vercel/ai#20717 quotes the allowed value alone);
 * - a host that says it in words: "structured outputs are not supported", "doesn't support structured output";
 * - Gemini before Gemini 3, which takes function calling or a JSON response mime type but not both: "Function
 *   calling with a response mime type: 'application/json' is unsupported" (googleapis/python-genai#867), "Tool use
 *   with a response mime type: …" (Gemini CLI users). That one refuses the format beside tools only
 *   (`refusedBesideTools`): the model keeps its native JSON mode for requests without them.
 */
import { GatewayError } from '../core/gateway-error.js';

const formatFields =
  /output_config|outputConfig|output_format|response_format|responseJsonSchema|responseSchema|json_schema|ChatRequest\.format\b/;

/** llama-server's parser refusing the format type, which older builds answer with a 500. */
const llamaServerFormatTypes = /\bresponse_format type must be one of "text" or "json_object"/;

/**
 * The feature named instead of the field. The same policy refuses Claude's other features in the same words
 * (`disallowed feature web_search`): only `structured_outputs` is the format's, so only it counts.
 */
const formatFeature = [
  /\bdisallowed feature structured_outputs\b/,
  /[\w.@-]:structured_outputs\b/,
  /\bstructured outputs? (?:is|are) not (?:supported|available|enabled)\b/i,
  /\bdo(?:es)?(?:n't| not) support structured outputs?\b/i,
];

const besideTools = /\b(?:function calling|tool use) with a response mime type\b/i;

/** A refusal of the format only beside the request's tools (Gemini before Gemini 3). */
export function refusedBesideTools(error: Error): boolean {
  return besideTools.test(error.message);
}

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
  const { message } = error;
  if (error.upstreamStatus === 500 && llamaServerFormatTypes.test(message)) return true;
  if (error.upstreamStatus !== 400 && error.upstreamStatus !== 422) return false;
  const namesFormat = formatFields.test(message) || besideTools.test(message) || formatFeature.some((pattern) => pattern.test(message));
  return namesFormat && !schemaProblem.test(message);
}
