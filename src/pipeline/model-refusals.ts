/**
 * The models whose upstream refused something the gateway can do itself (render tools through the model's
 * template, a native response format): later requests take the gateway's way at once, until the refusal is
 * forgotten (`server.refusalMemoryMs`, src/core/refusal-memory.ts) and the upstream is asked again. Each
 * memory says in the log, once per model, what the gateway does instead.
 */
import type { Logger } from '../core/logger.js';
import { modelsRemembered, type RefusalMemories, type RefusalMemory } from '../core/refusal-memory.js';
import type { ResolvedModel } from '../core/resolved-model.js';

export class ModelRefusals {
  private readonly refused: RefusalMemory;

  /** `logMessage`: what the gateway does for the model from now on, written once when the refusal is learned. */
  constructor(
    memories: RefusalMemories,
    private readonly logMessage: string,
  ) {
    this.refused = memories(modelsRemembered);
  }

  has(model: ResolvedModel): boolean {
    return this.refused.has(`${model.provider}/${model.model}`);
  }

  remember(model: ResolvedModel, error: Error, context: { log: Pick<Logger, 'warn'> }): void {
    if (!this.refused.remember(`${model.provider}/${model.model}`)) return;
    context.log.warn({ provider: model.provider, model: model.model, reason: error.message }, this.logMessage);
  }
}
