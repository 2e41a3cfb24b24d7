/** Token counts from Ollama's final chunk → neutral Usage, with the raw counters kept. */
import type { Usage } from '../../src/core/index.js';

export function mapOllamaUsage(finalChunk: Record<string, unknown>): Usage {
  // Counters and durations are the chunk's top-level numbers; copying them all keeps fields newer servers add.
  const raw: Record<string, number> = {};
  for (const [key, value] of Object.entries(finalChunk)) {
    if (typeof value === 'number') raw[key] = value;
  }
  const usage: Usage = { raw };
  const input = raw.prompt_eval_count;
  const output = raw.eval_count;
  if (input !== undefined) usage.inputTokens = input;
  if (output !== undefined) usage.outputTokens = output;
  if (input !== undefined && output !== undefined) usage.totalTokens = input + output;
  return usage;
}
