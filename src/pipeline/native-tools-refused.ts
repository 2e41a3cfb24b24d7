/**
 * Whether an upstream error is a server refusing native tools for a model, which the prompted lane can
 * serve instead. Only the servers' own words count (a bare 400 is as often bad input):
 * - vLLM without --enable-auto-tool-choice and --tool-call-parser, for `tool_choice: "auto"` (its default
 *   with tools): `"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set`
 *   (vllm/entrypoints/openai/serving_chat.py), and for `tool_choice: "required"` or a named tool, which it
 *   serves only with a parser: `tool_choice="required" requires --tool-call-parser to be set` (same file);
 * - llama-server without --jinja: `tools param requires --jinja flag`, sent as HTTP 500
 *   (tools/server/utils.hpp, `oaicompat_chat_params_parse`);
 * - Ollama, for a model without the `tools` capability: `<model> does not support tools` (server/routes.go);
 * - Bedrock's Converse, for a model without tool use: a ValidationException `This model doesn't support tool
 *   use.` (https://docs.aws.amazon.com/bedrock/latest/userguide/conversation-inference-supported-models-features.html).
 */
import { GatewayError } from '../core/gateway-error.js';

const refusals: readonly RegExp[] = [
  /--enable-auto-tool-choice/,
  /requires --tool-call-parser/,
  /tools param requires --jinja/,
  /does not support tools/,
  /doesn't support tool use/,
];

export function isNativeToolsRefusal(error: unknown): boolean {
  if (!GatewayError.isInstance(error) || error.upstreamStatus === undefined) return false;
  return refusals.some((pattern) => pattern.test(error.message));
}
