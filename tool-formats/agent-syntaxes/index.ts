/** The agent_format text syntaxes (an AgentSyntaxRegistry): our own tag wrappers and the families' syntaxes. */
// Each comes with the convention its agents use to send tool results back.
import type { AgentSyntaxRegistry, AgentTextSyntax, ToolFormat } from '../../src/core/index.js';
import { familyAgentSyntax } from './family-agent-syntax.js';
import {
  gemmaResults,
  harmonyResults,
  llamaIpythonResults,
  mistralResults,
  taggedResults,
  type ResultSplitter,
} from './result-splitters.js';
import { wrappedJsonSyntax } from './wrapped-json-syntax.js';

/** Qwen's and Hermes' chat templates wrap each result this way; custom tags use it too. */
const toolResponse = taggedResults('<tool_response>', '</tool_response>');

/** Family syntaxes by agent_format value: the family they come from and their result convention. */
const familySyntaxes: readonly { id: string; family: string; results: ResultSplitter }[] = [
  { id: 'hermes', family: 'hermes', results: toolResponse },
  { id: 'gemma', family: 'gemma', results: gemmaResults },
  { id: 'mistral', family: 'mistral', results: mistralResults },
  { id: 'harmony', family: 'harmony', results: harmonyResults },
];

/** A family that is not registered (yet) simply offers no syntax: its agent_format is then unknown. */
export function createAgentSyntaxRegistry(toolFormats: ReadonlyMap<string, ToolFormat>): AgentSyntaxRegistry {
  const syntaxes = new Map<string, AgentTextSyntax>();
  const add = (syntax: AgentTextSyntax) => syntaxes.set(syntax.id, syntax);
  add(wrappedJsonSyntax({ id: 'qwen3', start: '<|tool_call|>', end: '</|tool_call|>', results: toolResponse }));
  add(wrappedJsonSyntax({ id: 'llama3', start: '<function_call>', end: '</function_call>', results: llamaIpythonResults }));
  add(wrappedJsonSyntax({ id: 'xml', start: '<tool_call>', end: '</tool_call>', results: toolResponse }));
  for (const { id, family, results } of familySyntaxes) {
    const format = toolFormats.get(family);
    if (format) add(familyAgentSyntax(id, format, results));
  }
  return {
    syntaxes,
    custom: (start, end) => wrappedJsonSyntax({ id: 'custom', start, end, results: toolResponse }),
  };
}
