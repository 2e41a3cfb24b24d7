/**
 * Finds a model's tool-format family from its name using the data table in model-families.json.
 * Patterns are anchored at name boundaries so `dolphin` never matches `phi` and `ollama` never `llama`.
 */
import table from './model-families.json' with { type: 'json' };
import type { ToolCallingMode } from '../core/resolved-model.js';

export type FamilyMatch = { family: string; autoToolCalling: ToolCallingMode };

type FamilyEntry = { family: string; patterns: string[]; autoToolCalling: string };

const boundary = '(?:^|[/:_\\-. ])';

const compiled = (table.families as FamilyEntry[]).map((entry) => ({
  match: { family: entry.family, autoToolCalling: entry.autoToolCalling as ToolCallingMode },
  expression: new RegExp(`${boundary}(?:${entry.patterns.join('|')})`, 'i'),
}));

const fallback: FamilyMatch = {
  family: table.default.family,
  autoToolCalling: table.default.autoToolCalling as ToolCallingMode,
};

/**
 * Every request names its model, and a name that matches no family runs every pattern: answers are
 * remembered. Model names come from clients, so the memory is bounded (and simply starts over).
 */
const remembered = new Map<string, FamilyMatch>();
const rememberedLimit = 1024;

/** `model` is the upstream model id only (e.g. `Qwen/Qwen3-8B`), never `provider/model`. */
export function detectModelFamily(model: string): FamilyMatch {
  let match = remembered.get(model);
  if (match === undefined) {
    match = compiled.find((entry) => entry.expression.test(model))?.match ?? fallback;
    if (remembered.size >= rememberedLimit) remembered.clear();
    remembered.set(model, match);
  }
  return match;
}

export const knownFamilies: readonly string[] = [...new Set([...compiled.map((entry) => entry.match.family), fallback.family])];
