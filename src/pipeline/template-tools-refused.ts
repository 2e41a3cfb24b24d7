/**
 * Whether an upstream error is a server refusing to render tools through the model's chat template, so
 * that the prompted lane must write them into the prompt itself (server-renders-tools.ts), and the
 * models for which it did. Seen: llama-server without Jinja (`--no-jinja`, or any build from before it
 * was on by default in November 2025) answers every body with `tools`, on /v1/chat/completions and on
 * /apply-template alike, with a 500 `tools param requires --jinja flag` (`oaicompat_chat_params_parse` in
 * llama.cpp's tools/server/server-common.cpp): it applies the GGUF's template with its legacy built-in
 * formatter, which takes messages only.
 */
import { GatewayError } from '../core/gateway-error.js';
import type { Logger } from '../core/logger.js';
import type { RefusalMemories, RefusalMemory } from '../core/refusal-memory.js';
import type { ResolvedModel } from '../core/resolved-model.js';

export function isTemplateToolsRefusal(error: unknown): boolean {
  return GatewayError.isInstance(error) && error.upstreamStatus !== undefined && /tools param requires --jinja/.test(error.message);
}

/** Models are named by requests: the memory is bounded (src/core/refusal-memory.ts). */
const modelsRemembered = 1_000;

/**
 * The models whose server refused to render tools: later requests get the gateway's own rendering at once,
 * until the refusal is forgotten (`server.refusalMemoryMs`) and the server is asked to render them again.
 */
export class TemplateToolsRefusals {
  private readonly refused: RefusalMemory;

  constructor(memories: RefusalMemories) {
    this.refused = memories(modelsRemembered);
  }

  has(model: ResolvedModel): boolean {
    return this.refused.has(`${model.provider}/${model.model}`);
  }

  remember(model: ResolvedModel, error: Error, context: { log: Pick<Logger, 'warn'> }): void {
    if (!this.refused.remember(`${model.provider}/${model.model}`)) return;
    context.log.warn(
      { provider: model.provider, model: model.model, reason: error.message },
      "the server cannot render tools through the model's template: the gateway writes them into the prompt until it asks the server again",
    );
  }
}
