/** Llama 3.1's built-in tool calls after `<|python_tag|>`: `brave_search.call(query="…")` calls the tool `brave_search`. */
// Meta's template writes the built-ins (brave_search, wolfram_alpha, code_interpreter) this way, and
// llama.cpp's Llama 3.x parser reads any `NAME.call(…)` as a call to NAME (tests/test-chat.cpp expects
// `python.call(code=…)` to call `python`). Plain Python calls (`python(code=…)`) read as before.
// @see https://www.llama.com/docs/model-cards-and-prompt-formats/llama3_1/
import type { BodyGrammar } from '../shared/body-grammar.js';
import { decodePythonicCalls, pythonicCallGrammar } from '../shared/pythonic-call-grammar.js';
import type { ToolRoster } from '../shared/tool-roster.js';

const builtinSuffix = '.call';

/** The tool a written name calls: itself when offered by that name, else the name before `.call`. */
function builtinToolName(written: string, roster: ToolRoster): string {
  if (!written.endsWith(builtinSuffix) || written.length === builtinSuffix.length || roster.resolve(written) !== undefined) return written;
  return written.slice(0, -builtinSuffix.length);
}

export const llamaBuiltinCallGrammar: BodyGrammar = {
  id: 'llama3-builtin-call',
  accepts: pythonicCallGrammar.accepts,
  decode: (body, context) => decodePythonicCalls(body, context, (written) => builtinToolName(written, context.roster)),
};
