/**
 * A response format whose schema the upstream's grammar compiler gave up on (src/core/grammar-too-complex.ts has
 * the words): the model can still answer that schema when it is written into the prompt (the gateway then checks
 * the reply), so the request goes again that way, with a warning, and the model and schema are remembered: the
 * next request with the same schema skips the refused attempt. Another schema for the same model is still tried
 * natively: the limit is the schema's, not the model's.
 */
import { contentDigest } from '../core/content-digest.js';
import { modelsRemembered, type RefusalMemories, type RefusalMemory } from '../core/refusal-memory.js';
import type { ResolvedModel } from '../core/resolved-model.js';

/** The model and schema pairs whose grammar the upstream gave up on, bounded like the other refusal memories. */
export class SchemasTooComplex {
  private readonly refused: RefusalMemory;

  constructor(memories: RefusalMemories) {
    this.refused = memories(modelsRemembered);
  }

  /** No digest while nothing is remembered: every request with a schema asks, and the memory is nearly always empty. */
  has(model: ResolvedModel, schema: Record<string, unknown>): boolean {
    return this.refused.size > 0 && this.refused.has(keyOf(model, schema));
  }

  /** False when the pair was remembered already. */
  remember(model: ResolvedModel, schema: Record<string, unknown>): boolean {
    return this.refused.remember(keyOf(model, schema));
  }
}

/** A digest, not the schema's text: a memory of a thousand large schemas would otherwise hold them all. */
function keyOf(model: ResolvedModel, schema: Record<string, unknown>): string {
  return `${model.provider}/${model.model}\n${contentDigest(schema)}`;
}
