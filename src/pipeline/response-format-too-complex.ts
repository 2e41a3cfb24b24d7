/**
 * A schema the upstream's grammar compiler gave up on, past the limits anyone documents: Claude (direct, on
 * Vertex AI) and Bedrock's Converse compile a response format into a grammar and answer 400 when it grows too
 * large, in these words:
 * - "Schema is too complex for compilation." (Claude's structured-outputs docs, "Schema complexity limits":
 *   what is left when each explicit limit holds); Bedrock's "Schema is too complex.";
 * - "The compiled grammar is too large, which would cause performance issues. Simplify your tool schemas or
 *   reduce the number of strict tools." (anthropics/anthropic-sdk-python#1185, anthropics/claude-code#55539);
 * - "Grammar compilation timed out." (the 180-second compilation timeout the same docs name);
 * - the explicit limits, should the gateway's own count (src/core/strict-schema-limits.ts) miss one: "… which
 *   would make grammar compilation inefficient".
 * The model can still answer that schema when it is written into the prompt (the gateway then checks the
 * reply), so the request goes again that way, with a warning, and the model and schema are remembered: the
 * next request with the same schema skips the refused attempt. Another schema for the same model is still
 * tried natively: the limit is the schema's, not the model's.
 */
import { createHash } from 'node:crypto';
import { GatewayError } from '../core/gateway-error.js';
import { modelsRemembered, type RefusalMemories, type RefusalMemory } from '../core/refusal-memory.js';
import type { ResolvedModel } from '../core/resolved-model.js';

const grammarGaveUp = [
  /\bschema is too complex\b/i,
  /\bcompiled grammar is too large\b/i,
  /\bgrammar compilation timed out\b/i,
  /\bgrammar compilation inefficient\b/i,
];

export function isGrammarTooComplex(error: unknown): boolean {
  if (!GatewayError.isInstance(error) || error.upstreamStatus === undefined) return false;
  if (error.upstreamStatus < 400 || error.upstreamStatus >= 500) return false;
  return grammarGaveUp.some((pattern) => pattern.test(error.message));
}

/** The model and schema pairs whose grammar the upstream gave up on, bounded like the other refusal memories. */
export class SchemasTooComplex {
  private readonly refused: RefusalMemory;

  constructor(memories: RefusalMemories) {
    this.refused = memories(modelsRemembered);
  }

  has(model: ResolvedModel, schema: Record<string, unknown>): boolean {
    return this.refused.has(keyOf(model, schema));
  }

  /** False when the pair was remembered already. */
  remember(model: ResolvedModel, schema: Record<string, unknown>): boolean {
    return this.refused.remember(keyOf(model, schema));
  }
}

/** A digest, not the schema's text: a memory of a thousand large schemas would otherwise hold them all. */
function keyOf(model: ResolvedModel, schema: Record<string, unknown>): string {
  const digest = createHash('sha256').update(JSON.stringify(schema)).digest('base64url');
  return `${model.provider}/${model.model}\n${digest}`;
}
