/** Hy4's tool-call section with the checkpoint's tag suffix: `<tool_calls:6124c78e><tool_call:6124c78e>NAME…</tool_calls:6124c78e>`. */
// Some Hy4 checkpoints spell every structural tag with a per-checkpoint suffix, which vLLM's hy_v4 parser
// reads from the tokenizer's vocabulary. The gateway has no tokenizer, so the suffix is read from the
// section's own open tag: `<tool_calls:` is the start marker, the suffix runs to its `>`, and the body
// ends at `</tool_calls:SUFFIX>` outside `<arg_value:SUFFIX>` values. With the suffix taken out of the
// tags, the section is Hy3's and Hy3's grammar reads it (the name is followed directly by its pairs).
// @see https://github.com/vllm-project/vllm/blob/main/vllm/tool_parsers/hy_v4_tool_parser.py
import { type BodyGrammar } from '../shared/body-grammar.js';
import type { BodyScanner, BodyScanStep } from '../shared/body-scanner.js';
import type { Envelope } from '../shared/envelope.js';
import { MarkerMatcher } from '../shared/marker-matcher.js';
import { hy3CallGrammar } from './hy3-call-grammar.js';

export const suffixedSectionStart = '<tool_calls:';
/** A suffix is a short token spelling (`:6124c78e`): anything longer, or with spaces or tags, is prose. */
const longestSuffix = 64;
const suffixHead = /^([^\s<>]+)>/;

class SuffixedSectionScanner implements BodyScanner {
  private suffix: string | undefined;
  private structure = new MarkerMatcher<'close' | 'value'>([]);
  private valueClose = '';
  private inValue = false;

  scan(input: string, position: number): BodyScanStep {
    let index = position;
    if (this.suffix === undefined) {
      const pending = input.slice(position, position + longestSuffix + 1);
      const head = suffixHead.exec(pending);
      if (head === null) {
        const mayGrow = pending.length <= longestSuffix && /^[^\s<>]*$/.test(pending);
        return mayGrow ? { type: 'more', keepFrom: position } : { type: 'declined', resume: position, markerIsText: true };
      }
      this.suffix = head[1];
      this.structure = new MarkerMatcher<'close' | 'value'>([
        { marker: `</tool_calls:${this.suffix}>`, value: 'close' },
        { marker: `<arg_value:${this.suffix}>`, value: 'value' },
      ]);
      this.valueClose = `</arg_value:${this.suffix}>`;
      index = position + head[0].length;
    }
    for (;;) {
      if (this.inValue) {
        const valueEnd = input.indexOf(this.valueClose, index);
        if (valueEnd < 0) return { type: 'more', keepFrom: Math.max(index, input.length - this.valueClose.length + 1) };
        index = valueEnd + this.valueClose.length;
        this.inValue = false;
      }
      // One pass finds the nearer of the close and a value (searching each on its own would read to the
      // reply's end for the one that is not there).
      const hit = this.structure.find(input, index);
      switch (hit.type) {
        case 'none':
          return { type: 'more', keepFrom: input.length };
        case 'partial':
          return { type: 'more', keepFrom: hit.index };
        case 'found':
          if (hit.value === 'close') return { type: 'closed', bodyEnd: hit.index, end: hit.index + hit.marker.length };
          index = hit.index + hit.marker.length;
          this.inValue = true;
      }
    }
  }

  undecidedAtEnd(): boolean {
    return this.suffix === undefined;
  }
}

/** The body is `SUFFIX>` and the suffixed calls: without the suffix, Hy3's section body. */
export const suffixedSectionGrammar: BodyGrammar = {
  id: 'hy4-suffixed-calls',
  accepts: (body) => suffixHead.test(body),
  decode(body, context) {
    const head = suffixHead.exec(body);
    const suffix = head?.[1] ?? '';
    const calls = withoutSuffix(body.slice(head?.[0].length ?? 0), suffix).trim();
    return hy3CallGrammar.accepts(calls)
      ? hy3CallGrammar.decode(calls, context)
      : { type: 'invalid', message: `The tool-call section holds no <tool_call:${suffix}> block` };
  },
};

/** The section with `:SUFFIX` taken out of its tags; values (up to their own close) stay as written. */
function withoutSuffix(section: string, suffix: string): string {
  const strip = (structure: string) => structure.split(`:${suffix}>`).join('>');
  const valueOpen = `<arg_value:${suffix}>`;
  const valueClose = `</arg_value:${suffix}>`;
  const [first = '', ...rest] = section.split(valueOpen);
  return rest.reduce((text, segment) => {
    const end = segment.indexOf(valueClose);
    if (end < 0) return `${text}<arg_value>${segment}`;
    return `${text}<arg_value>${segment.slice(0, end)}</arg_value>${strip(segment.slice(end + valueClose.length))}`;
  }, strip(first));
}

export function suffixedSectionEnvelope(family: string): Envelope {
  return {
    family,
    start: [suffixedSectionStart],
    end: [],
    kind: 'explicit',
    body: { type: 'custom', createScanner: () => new SuffixedSectionScanner() },
    grammars: [suffixedSectionGrammar],
  };
}
