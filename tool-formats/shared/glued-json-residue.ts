/** Residue of a marker before a JSON call (Llama's `<|python_tag|>`, Granite's `<|tool_call|>`, InternLM's action tokens). */
// Stripped, the marker leaves the JSON glued to the sentence before it: `Let me check.{"name": …}`. At the
// reply's start or on a line of its own such JSON is read as a bare call already, and not reported: a real
// envelope may put its JSON on a new line (`<|plugin|>\n{…}`), and the restorer does not see inside
// envelopes. Glued to text, only the family's own parser reads it, and only when it opens as a call to an
// offered tool (`{"name": "NAME"`), which a sentence never does. A quote, backtick, bracket or `>` before
// it means the JSON is quoted or sits inside other markup, so it is left alone.
import { more, none, readCallHead } from './residue-reading.js';
import type { StrippedResidue } from './stripped-residue.js';

/** Characters after which a `{` or `[` is not glued to prose. */
const notGlue = new Set([...' \t\r\n`\'"([{]<>=|'].map((character) => character.charCodeAt(0)));

/** `open` goes back before the JSON, `close` (possibly empty) after it. */
export function gluedJsonResidue(open: string, close: string): StrippedResidue {
  return {
    triggers: ['{', '['],
    read(text, from, context) {
      if (context.site !== 'trigger' || context.previousCode < 0 || notGlue.has(context.previousCode)) return { type: 'none' };
      const head = readCallHead(text, from, context.roster);
      if (head === more) return { type: 'more' };
      if (head === none) return { type: 'none' };
      return { type: 'residue', length: 0, evidence: text.slice(from, head), restored: open, afterValue: close };
    },
  };
}
