/** ToolInputGate: a tool_use block streams argument text that opens an object, and nothing else, however it is chunked. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ToolInputGate } from '../../../routes/messages/tool-input-gate.js';

/** `text` cut at the given positions. */
function pieces(text: string, cuts: number[]): string[] {
  const positions = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b);
  return [0, ...positions].map((start, position) => text.slice(start, positions[position] ?? text.length));
}

const call = { id: 'call_1', name: 'Bash' };

describe('ToolInputGate', () => {
  it('streams an object whole, its leading whitespace included, for any chunking', () => {
    fc.assert(
      fc.property(fc.constantFrom('{"command": "ls"}', ' \n{"a": [1, 2]}', '{"broken": ls'), fc.array(fc.nat(40)), (text, cuts) => {
        const gate = new ToolInputGate();
        expect(
          pieces(text, cuts)
            .map((piece) => gate.pass(piece))
            .join(''),
        ).toBe(text);
        expect(gate.warning(text, call)).toBeUndefined();
      }),
    );
  });

  it('streams nothing of text that does not open an object, for any chunking', () => {
    fc.assert(
      fc.property(fc.constantFrom(' [1, 2]', '"ls"', '42', 'null', 'ls -la', '  '), fc.array(fc.nat(10)), (text, cuts) => {
        const gate = new ToolInputGate();
        expect(
          pieces(text, cuts)
            .map((piece) => gate.pass(piece))
            .join(''),
        ).toBe('');
      }),
    );
  });

  it('warns of JSON that is not an object, and leaves text that is not JSON to the pipeline', () => {
    const warningOf = (text: string) => {
      const gate = new ToolInputGate();
      gate.pass(text);
      return gate.warning(text, call)?.message;
    };
    expect(warningOf('[1, 2]')).toBe("The arguments of tool call 'call_1' (Bash) are an array, not a JSON object; its input is {}.");
    expect(warningOf('"ls"')).toContain('are a string');
    expect(warningOf('null')).toContain('are null');
    expect(warningOf('ls -la')).toBeUndefined();
    expect(warningOf('')).toBeUndefined();
  });
});
