/**
 * What a model's name says about it, from the data table in model-families.json: its tool-format family,
 * and whether its chat template opens the reasoning block itself.
 * Patterns are anchored at name boundaries so `dolphin` never matches `phi` and `ollama` never `llama`.
 */

import table from './model-families.json' with { type: 'json' };
import type { RecentMemo } from '../core/recent-memo.js';
import type { FamilyMatch } from '../core/request-caches.js';
import type { ReasoningOpening, ToolCallingMode } from '../core/resolved-model.js';
import type { ModelIdentity } from '../core/server-profile.js';
import type { ServerKind } from '../core/server-kind.js';

export type { FamilyMatch } from '../core/request-caches.js';

type FamilyEntry = { family: string; patterns: string[]; autoToolCalling: string };

const boundary = '(?:^|[/:_\\-. ])';

const compile = (patterns: readonly string[]) => new RegExp(`${boundary}(?:${patterns.join('|')})`, 'i');

const compiled = (table.families as FamilyEntry[]).map((entry) => ({
  match: { family: entry.family, autoToolCalling: entry.autoToolCalling as ToolCallingMode },
  expression: compile(entry.patterns),
}));

const fallback: FamilyMatch = {
  family: table.default.family,
  autoToolCalling: table.default.autoToolCalling as ToolCallingMode,
};

function findModelFamily(model: string): FamilyMatch {
  return compiled.find((entry) => entry.expression.test(model))?.match ?? fallback;
}

/**
 * `model` is the upstream model id only (e.g. `Qwen/Qwen3-8B`), never `provider/model`. Every request
 * names its model, and a name that matches no family runs every pattern (tens of microseconds), so
 * requests pass `memory` (RequestCaches.modelFamilies, bounded: model names come from clients).
 */
export function detectModelFamily(model: string, memory?: RecentMemo<string, FamilyMatch>): FamilyMatch {
  return memory ? memory.get(model, () => findModelFamily(model)) : findModelFamily(model);
}

/** The family a name names, or undefined when it matches no entry (the table's default is not a match). */
export function namedModelFamily(model: string, memory?: RecentMemo<string, FamilyMatch>): FamilyMatch | undefined {
  const match = detectModelFamily(model, memory);
  return match === fallback ? undefined : match;
}

/**
 * The last segment of a path or repository id (the file or folder that is the model), then the whole of
 * it: a parent folder may name anything (`/srv/mistral-share/Qwen3-8B`), but a snapshot folder names
 * nothing and its path does (`…/models--Qwen--Qwen3-8B/snapshots/0a1b…`).
 */
function spellingsOf(name: string): string[] {
  const last = name.split(/[\\/]/).findLast((segment) => segment !== '') ?? name;
  return last === name ? [name] : [last, name];
}

/** The family the server's identity of a model names (each name in turn, see ModelIdentity), and the name that named it. */
export function familyFromIdentity(
  identity: ModelIdentity,
  memory?: RecentMemo<string, FamilyMatch>,
): { match: FamilyMatch; name: string } | undefined {
  for (const name of identity) {
    for (const spelling of spellingsOf(name)) {
      const match = namedModelFamily(spelling, memory);
      if (match) return { match, name: spelling };
    }
  }
  return undefined;
}

export const knownFamilies: readonly string[] = [...new Set([...compiled.map((entry) => entry.match.family), fallback.family])];

// Whether a model's chat template opens the reasoning block in the generation prompt (the
// `opensInReasoning` lists of model-families.json), so that its replies begin inside it.
const byDefault = compile(table.opensInReasoning.byDefault);
const whenEnabled = compile(table.opensInReasoning.whenEnabled);
const byDefaultOnServer: ReadonlyMap<string, RegExp> = new Map(
  Object.entries(table.opensInReasoning.byDefaultOnServer).map(([server, patterns]) => [server, compile(patterns)]),
);

/**
 * `model` is the upstream model id only (e.g. `Qwen/Qwen3.5-27B`), never `provider/model`; `server` the kind
 * of server that renders its template, when known (a model whose template differs by server, DeepSeek V3.2,
 * is taken as the other servers render it until then).
 */
export function detectReasoningOpening(model: string, server?: ServerKind): ReasoningOpening | undefined {
  if (byDefault.test(model)) return 'by-default';
  if (server !== undefined && byDefaultOnServer.get(server)?.test(model) === true) return 'by-default';
  if (whenEnabled.test(model)) return 'when-enabled';
  return undefined;
}
