/** Python calls in a Gemma ```` ```tool_code ```` block, also in Gemini's `print(default_api.NAME(…))` style. */
// Gemma shares its code-execution habits with Gemini: a call may be wrapped in `print(…)` and
// prefixed with `default_api.`. Both are taken off before the shared Python reader sees the calls.
import type { BodyGrammar, DecodeContext, DecodedBody } from '../shared/body-grammar.js';
import { decodePythonicCalls, pythonicCallGrammar } from '../shared/pythonic-call-grammar.js';

const printLine = /^\s*print\(([\s\S]*)\)\s*$/;
const apiPrefix = 'default_api.';

export const toolCodeGrammar: BodyGrammar = {
  id: 'gemma-tool-code',
  accepts: (body) => pythonicCallGrammar.accepts(withoutPrint(body)),
  decode(body: string, context: DecodeContext): DecodedBody {
    const decoded = decodePythonicCalls(withoutPrint(body), context);
    if (decoded.type === 'invalid') return decoded;
    return {
      type: 'calls',
      calls: decoded.calls.map((call) =>
        call.type === 'call' && call.name.startsWith(apiPrefix) ? { ...call, name: call.name.slice(apiPrefix.length) } : call,
      ),
    };
  },
};

/** `print(f(a=1))` → `f(a=1)`, line by line when every line is a `print(…)`. */
function withoutPrint(body: string): string {
  if (!body.startsWith('print(')) return body;
  const lines = body.split('\n').filter((line) => line.trim() !== '');
  const inner = lines.map((line) => printLine.exec(line)?.[1]);
  if (inner.every((call) => call !== undefined)) return inner.join('\n');
  return printLine.exec(body)?.[1] ?? body;
}
