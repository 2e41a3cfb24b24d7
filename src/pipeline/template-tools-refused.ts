/**
 * Whether an upstream error is a server refusing to render tools through the model's chat template, so
 * that the prompted lane must write them into the prompt itself (server-renders-tools.ts; the models it
 * refused are remembered in model-refusals.ts). Seen: llama-server without Jinja (`--no-jinja`, or any
 * build from before it was on by default in November 2025) answers every body with `tools`, on /v1/chat/completions and on
 * /apply-template alike, with a 500 `tools param requires --jinja flag` (`oaicompat_chat_params_parse` in
 * llama.cpp's tools/server/server-common.cpp): it applies the GGUF's template with its legacy built-in
 * formatter, which takes messages only.
 */
import { GatewayError } from '../core/gateway-error.js';

export function isTemplateToolsRefusal(error: unknown): boolean {
  return GatewayError.isInstance(error) && error.upstreamStatus !== undefined && /tools param requires --jinja/.test(error.message);
}
