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
 * - llama-server's json-schema-to-grammar, which knows no schema without a type or structure ("JSON schema
 *   conversion failed:\nUnrecognized schema: {…}", a 400 quoted in ggml-org/llama.cpp#19716): a valid JSON
 *   Schema all the same, which the gateway can still ask for in the prompt and check.
 * The gateway then asks for less: a response format goes into the prompt (src/pipeline/response-format-too-complex.ts),
 * strict tools go without strict (providers/anthropic/create-anthropic-adapter.ts).
 */
import { GatewayError } from './gateway-error.js';

const grammarGaveUp = [
  /\bschema is too complex\b/i,
  /\bcompiled grammar is too large\b/i,
  /\bgrammar compilation timed out\b/i,
  /\bgrammar compilation inefficient\b/i,
  /\bJSON schema conversion failed\b/i,
];

/** A 4xx from the upstream in one of those wordings. */
export function isGrammarTooComplex(error: unknown): boolean {
  if (!GatewayError.isInstance(error) || error.upstreamStatus === undefined) return false;
  if (error.upstreamStatus < 400 || error.upstreamStatus >= 500) return false;
  return grammarGaveUp.some((pattern) => pattern.test(error.message));
}
