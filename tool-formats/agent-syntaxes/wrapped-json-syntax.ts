/** Agent syntaxes that wrap `{"name", "arguments"}` in a pair of tags (qwen3, llama3, xml, custom). */
// qwen3's `<|tool_call|>`, llama3's `<function_call>`, xml's `<tool_call>`, custom `tool_call_tags`. The JSON
// is indented by two spaces, as AbstractCore writes these formats, so agents built for it read ours unchanged.
import type { AgentTextSyntax } from '../../src/core/index.js';
import { createEnvelopeCatalogue } from '../shared/envelope-catalogue.js';
import { taggedEnvelope } from '../shared/envelope.js';
import { argumentsForRendering } from '../shared/format-json.js';
import { jsonCallGrammar } from '../shared/json-call-grammar.js';
import { createPassThroughParser } from '../shared/pass-through-parser.js';
import { createReplyParser } from '../shared/reply-parser.js';
import { createToolRoster } from '../shared/tool-roster.js';
import type { ResultSplitter } from './result-splitters.js';

export type WrappedJsonOptions = { id: string; start: string; end: string; results: ResultSplitter };

export function wrappedJsonSyntax(options: WrappedJsonOptions): AgentTextSyntax {
  const { id, start, end } = options;
  if (start === end) throw new Error('the start and end tags must differ');
  // Only this wrapper is read back from the agent's history (bare JSON there is the agent's own text);
  // building the catalogue also refuses tags that clash with <think>.
  const syntax = createEnvelopeCatalogue([{ family: id, envelopes: [taggedEnvelope(id, start, end, [jsonCallGrammar])] }]).syntaxFor(id);
  return {
    id,
    renderCall: (call) =>
      `${start}\n${JSON.stringify({ name: call.name, arguments: argumentsForRendering(call.arguments) }, null, 2)}\n${end}`,
    createParser: (tools) => (tools.length === 0 ? createPassThroughParser() : createReplyParser(syntax, createToolRoster(tools))),
    splitResults: options.results,
  };
}
