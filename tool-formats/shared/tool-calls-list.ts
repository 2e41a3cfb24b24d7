/** `<tool_calls>[…]</tool_calls>`: a JSON list of calls in one tag pair (Jamba, Hunyuan-A13B, Apriel; MiniMax-M1 writes one object per line). */
// Every family registering the marker registers it this way (tagged, JSON grammar), so that one start
// marker scans one way whichever family's parser reads it.
import type { ToolCallPart } from '../../src/core/index.js';
import type { BodyGrammar } from './body-grammar.js';
import { taggedEnvelope, type Envelope } from './envelope.js';
import { renderJsonCallList } from './json-call-text.js';
import { jsonCallGrammar } from './json-call-grammar.js';

export const toolCallsOpen = '<tool_calls>';
export const toolCallsClose = '</tool_calls>';

/** `ownGrammars` are tried before the JSON grammar, by the family's own parser first (MiniMax-M1's call lines). */
export function toolCallsEnvelope(family: string, ownGrammars: readonly BodyGrammar[] = []): Envelope {
  return taggedEnvelope(family, toolCallsOpen, toolCallsClose, [...ownGrammars, jsonCallGrammar]);
}

/** All calls of a turn in one list, as the Jamba, Hunyuan and Apriel templates write them. */
export function renderToolCallsList(calls: readonly Pick<ToolCallPart, 'name' | 'arguments'>[]): string {
  return toolCallsOpen + renderJsonCallList(calls) + toolCallsClose;
}
