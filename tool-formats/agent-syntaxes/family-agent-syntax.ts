/** Agent syntaxes that are a tool-format family's own (hermes, mistral, harmony, gemma). */
// Calls are written with the family's renderer, and the history is read with the family's parser, which
// knows every family's markup (its own first).
import type { AgentTextSyntax, ToolFormat } from '../../src/core/index.js';
import type { ResultSplitter } from './result-splitters.js';

export function familyAgentSyntax(id: string, format: ToolFormat, results: ResultSplitter): AgentTextSyntax {
  return {
    id,
    renderCall: (call) => format.renderCall(call),
    createParser: (tools) => format.createParser(tools),
    splitResults: results,
  };
}
