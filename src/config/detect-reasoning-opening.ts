/**
 * Finds from a model's name whether its chat template opens the reasoning block in the generation
 * prompt (the `opensInReasoning` lists of model-families.json), so that its replies begin inside it.
 */
import table from './model-families.json' with { type: 'json' };
import type { ReasoningOpening } from '../core/resolved-model.js';

const boundary = '(?:^|[/:_\\-. ])';

const compile = (patterns: readonly string[]) => new RegExp(`${boundary}(?:${patterns.join('|')})`, 'i');

const byDefault = compile(table.opensInReasoning.byDefault);
const whenEnabled = compile(table.opensInReasoning.whenEnabled);

/** `model` is the upstream model id only (e.g. `Qwen/Qwen3.5-27B`), never `provider/model`. */
export function detectReasoningOpening(model: string): ReasoningOpening | undefined {
  if (byDefault.test(model)) return 'by-default';
  if (whenEnabled.test(model)) return 'when-enabled';
  return undefined;
}
