/** Qwen3-Coder's XML calls: `<function=NAME>` blocks of `<parameter=KEY>` raw values, in `<tool_call>` or alone. */
// Seed-OSS writes the same blocks inside `<seed:tool_call>`; `functionBlocksGrammar` takes its dialect.
// Values are raw text (code keeps its quotes and indentation), converted with the tool's JSON Schema.
// The format has no escaping: a value ends at its `</parameter>`, after the closes of any parameter
// blocks it quotes (a line starting with `<parameter=`); when the model left that close out, at the
// next `<parameter=` or `</function>` starting a line (as vLLM's qwen3_coder parser does).
// @see https://github.com/vllm-project/vllm/blob/main/vllm/tool_parsers/qwen3coder_tool_parser.py
import { excerpt, type BodyGrammar, type DecodeContext, type DecodedBody } from './body-grammar.js';
import type { CandidateCall } from './call-payload.js';
import { coerceArgumentsBySchema } from './coerce-by-schema.js';
import { defineKey, skipSpace } from './lenient-json.js';
import { isMarkerRemnant } from './marker-matcher.js';
import { NextOccurrence } from './next-occurrence.js';

export const functionOpen = '<function=';
export const functionClose = '</function>';
export const parameterOpen = '<parameter=';
export const parameterClose = '</parameter>';
/** A parameter block quoted inside a value starts a line; a structural one may follow `>` directly. */
export const lineParameterOpen = '\n' + parameterOpen;

/** What a model could mean as a function or parameter name; spaces, quotes and brackets mean prose or a template. */
const namePattern = /^[^\s<>{}"'`=]+$/;

/**
 * How a family's function blocks differ: the wrapper's close tag (a cut-off reply may end inside it)
 * and what of a raw value is the value (Qwen3-Coder trims the template's newlines; Seed-OSS a newline frame).
 */
export type FunctionBlockDialect = { wrapperClose: string; valueText: (raw: string) => string };

/** A grammar for one or more `<function=…>` blocks right inside a wrapper such as `<tool_call>`. */
export function functionBlocksGrammar(id: string, dialect: FunctionBlockDialect): BodyGrammar {
  return {
    id,
    accepts: (body) => body.startsWith(functionOpen),
    decode: (body, context) => new FunctionBlockReader(body, context, dialect).read(functionOpen.length),
  };
}

const qwen3CoderDialect: FunctionBlockDialect = { wrapperClose: '</tool_call>', valueText: trimParameterValue };

/** Inside `<tool_call>`: one or more `<function=…>` blocks, each one call. */
export const qwen3CoderToolCallGrammar: BodyGrammar = functionBlocksGrammar('qwen3-coder-xml', qwen3CoderDialect);

/** `<function=NAME>…` without `<tool_call>` (the envelope's start marker took `<function=`). */
export const qwen3CoderFunctionGrammar: BodyGrammar = {
  id: 'qwen3-coder-function',
  // Llama's `<function=NAME>{json}` shares the marker; this grammar takes only XML parameters.
  accepts: (body) => /^[^\s<>{}"'`=]+>\s*(?:<parameter=|<\/function>|$)/.test(body),
  decode: (body, context) => new FunctionBlockReader(body, context, qwen3CoderDialect).read(0),
};

type Invalid = Extract<DecodedBody, { type: 'invalid' }>;
type FunctionRead = { type: 'call'; call: CandidateCall; end: number } | Invalid;
type ParameterRead = { type: 'parameter'; key: string; value: string; end: number } | Invalid;

class FunctionBlockReader {
  private readonly parameterCloses: NextOccurrence;
  private readonly lineParameterOpens: NextOccurrence;
  private readonly lineFunctionCloses: NextOccurrence;

  constructor(
    private readonly body: string,
    private readonly context: DecodeContext,
    private readonly dialect: FunctionBlockDialect,
  ) {
    this.parameterCloses = new NextOccurrence(body, parameterClose);
    this.lineParameterOpens = new NextOccurrence(body, lineParameterOpen);
    this.lineFunctionCloses = new NextOccurrence(body, '\n' + functionClose);
  }

  /** Every function block, starting with the name of the first at `nameStart`. */
  read(nameStart: number): DecodedBody {
    const body = this.body;
    const calls: CandidateCall[] = [];
    let position = nameStart;
    for (;;) {
      const block = this.readFunction(position);
      if (block.type === 'invalid') {
        if (calls.length === 0) return block;
        // The calls before it stand; the broken one is reported.
        calls.push({ type: 'invalid', message: block.message });
        return { type: 'calls', calls };
      }
      calls.push(block.call);
      position = skipSpace(body, block.end);
      if (position >= body.length || isMarkerRemnant(body, position, this.dialect.wrapperClose)) return { type: 'calls', calls };
      if (this.context.framing === 'unclosed' && body.startsWith(this.dialect.wrapperClose, position)) {
        // The scanner took this wrapper close for text inside a value whose close was left out; the
        // envelope reader finds it again and reads the text after it as text.
        return { type: 'invalid', message: `The call ended at a ${this.dialect.wrapperClose} inside an unclosed value` };
      }
      if (!body.startsWith(functionOpen, position)) {
        calls.push({ type: 'invalid', message: `Unexpected text after a function block: ${excerpt(body.slice(position))}` });
        return { type: 'calls', calls };
      }
      position += functionOpen.length;
    }
  }

  private readFunction(nameStart: number): FunctionRead {
    const body = this.body;
    const nameEnd = body.indexOf('>', nameStart);
    if (nameEnd < 0) return { type: 'invalid', message: 'The function name is cut off', incomplete: true };
    const name = body.slice(nameStart, nameEnd).trim();
    if (!namePattern.test(name)) return { type: 'invalid', message: `Not a function name: "${excerpt(name, 40)}"` };
    const raw: Record<string, string> = {};
    let position = nameEnd + 1;
    for (;;) {
      position = skipSpace(body, position);
      if (position >= body.length || isMarkerRemnant(body, position, this.dialect.wrapperClose)) {
        // No </function>: in a closed envelope the function ends with it; at the end of a cut-off
        // reply more parameters may have been coming.
        if (this.context.framing === 'unclosed') return { type: 'invalid', message: `The call to "${name}" is cut off`, incomplete: true };
        return this.call(name, raw, body.length);
      }
      if (body.startsWith(functionClose, position)) return this.call(name, raw, position + functionClose.length);
      // The next function began without a `</function>` for this one.
      if (body.startsWith(functionOpen, position)) return this.call(name, raw, position);
      // Cut off inside `</function>`: every parameter is complete.
      if (isMarkerRemnant(body, position, functionClose)) return this.call(name, raw, body.length);
      if (!body.startsWith(parameterOpen, position)) {
        return { type: 'invalid', message: `Unexpected text in the call to "${name}": ${excerpt(body.slice(position))}` };
      }
      const parameter = this.readParameter(position + parameterOpen.length, name);
      if (parameter.type === 'invalid') return parameter;
      defineKey(raw, parameter.key, parameter.value);
      position = parameter.end;
    }
  }

  private readParameter(keyStart: number, functionName: string): ParameterRead {
    const body = this.body;
    const keyEnd = body.indexOf('>', keyStart);
    if (keyEnd < 0) return { type: 'invalid', message: `A parameter name in the call to "${functionName}" is cut off`, incomplete: true };
    const key = body.slice(keyStart, keyEnd).trim();
    if (!namePattern.test(key))
      return { type: 'invalid', message: `Not a parameter name in the call to "${functionName}": "${excerpt(key, 40)}"` };
    const valueStart = keyEnd + 1;
    const close = this.findValueClose(valueStart);
    if (close >= 0)
      return { type: 'parameter', key, value: this.dialect.valueText(body.slice(valueStart, close)), end: close + parameterClose.length };
    const implicitEnd = earliest([this.lineParameterOpens.from(valueStart), this.lineFunctionCloses.from(valueStart)]);
    // Never repaired up to the end of the body, even when the envelope closed: a value holding
    // `</tool_call>` may have hidden the real end, and the text before it is then a cut-off value.
    if (implicitEnd < 0)
      return { type: 'invalid', message: `The value of "${key}" in the call to "${functionName}" is not closed`, incomplete: true };
    return { type: 'parameter', key, value: this.dialect.valueText(body.slice(valueStart, implicitEnd)), end: implicitEnd };
  }

  /** The `</parameter>` of the value at `valueStart`, after those of the blocks it quotes; -1 when it has none. */
  private findValueClose(valueStart: number): number {
    let depth = 0;
    let position = valueStart;
    for (;;) {
      const close = this.parameterCloses.from(position);
      if (close < 0) return -1;
      const open = this.lineParameterOpens.from(position);
      if (open >= 0 && open < close) {
        depth++;
        position = open + lineParameterOpen.length;
      } else if (depth === 0) {
        return close;
      } else {
        depth--;
        position = close + parameterClose.length;
      }
    }
  }

  private call(name: string, raw: Record<string, string>, end: number): FunctionRead {
    const parameters = this.context.roster.resolve(name)?.parameters ?? {};
    return { type: 'call', call: { type: 'call', name, arguments: coerceArgumentsBySchema(raw, parameters) }, end };
  }
}

/**
 * The template writes `<parameter=KEY>\nVALUE\n</parameter>`: exactly one newline on each side is
 * the wrapper; inner newlines and indentation belong to the value. CRLF becomes LF.
 */
export function trimParameterValue(value: string): string {
  const text = value.includes('\r\n') ? value.replaceAll('\r\n', '\n') : value;
  const start = text.startsWith('\n') ? 1 : 0;
  const end = text.length > start && text.endsWith('\n') ? text.length - 1 : text.length;
  return text.slice(start, end);
}

/** The smallest index that was found (not -1), or -1. */
function earliest(indexes: readonly number[]): number {
  let best = -1;
  for (const index of indexes) if (index >= 0 && (best < 0 || index < best)) best = index;
  return best;
}
