/**
 * The JSON of a streamed reply asked for JSON, passed on as it streams: prose and a code fence before the
 * value are held back and dropped, the value passes through strict-json-prefix.ts (a trailing comma dropped,
 * single quotes and Python literals mended token by token), and whatever follows the complete value (the
 * closing fence, "Hope that helps.", the line break before them) is dropped. So the deltas a client accumulates spell the JSON the model
 * meant, as a whole reply's content does, and a client that parses the stream's text (the openai SDK's
 * `chat.completions.stream()` and `responses.stream()` helpers) gets its object, not a SyntaxError on "Sure".
 *
 * Where the value starts: the first `{` (or `[`, for a schema whose root is an array) that the text after it
 * confirms, so prose with brackets of its own ("{city}", "[as requested]") is not taken for it. A reply
 * with no such value (a refusal in words, a bare string) is passed on as written at its end.
 */
import { StrictJsonPrefix } from './strict-json-prefix.js';

/**
 * The characters a reply's JSON may open with: `{` for `json_object` and a schema of an object, `[` for one of an
 * array, either for any other (a union, or a json_schema format without a schema, which OpenAI allows).
 */
export function jsonOpeners(format: { type: 'json_object' } | { type: 'json_schema'; schema?: Record<string, unknown> }): string {
  if (format.type === 'json_object') return '{';
  const { schema } = format;
  if (schema?.type === 'object' || schema?.properties !== undefined) return '{';
  if (schema?.type === 'array') return '[';
  return '{[';
}

/** How a streamed reply ended: of its own accord, or cut off (token limit, error, a stream that stopped). */
export type StreamEnd = 'stop' | 'cut-off';

export class StreamedJsonReply {
  /** Everything passed on so far. */
  passed = '';
  /** Text not judged yet: prose before the value, and the value's start while it is a trial. */
  private pending = '';
  /** Where in `pending` the trial value starts, with its reader; undefined while no opener is in sight. */
  private trial: { start: number; reader: StrictJsonPrefix } | undefined;
  /** The value's reader once confirmed: from then on text goes straight through it. */
  private value: StrictJsonPrefix | undefined;

  constructor(private readonly openers: string) {}

  /** Takes the next piece of the reply's text; returns what may be passed on now. */
  push(delta: string): string {
    if (this.value) {
      if (this.value.complete) return '';
      const passed = this.value.push(delta);
      return this.pass(this.value.complete ? passed.trimEnd() : passed);
    }
    const searched = this.pending.length;
    this.pending += delta;
    if (this.trial) this.trial.reader.push(delta);
    else this.openTrial(searched);
    return this.pass(this.settle());
  }

  /** What the client gets at the reply's end: closers the value lacks, or the text held as written. */
  end(how: StreamEnd): string {
    if (this.value?.complete) return '';
    // A model that stopped short of its closers forgot them; one that was cut off did not finish its answer.
    const completion = how === 'stop' && this.value && !this.value.broken ? this.value.completion() : undefined;
    if (completion !== undefined) return this.pass(completion);
    if (this.value) return this.pass(this.value.held);
    // No value was confirmed: the reply goes on as written (a trial included).
    return this.pass(this.pending);
  }

  private pass(text: string): string {
    this.passed += text;
    return text;
  }

  /** Starts a trial at the first opener at or after `from`, if there is one. */
  private openTrial(from: number): void {
    for (let index = from; index < this.pending.length; index++) {
      if (!this.openers.includes(this.pending.charAt(index))) continue;
      const reader = new StrictJsonPrefix();
      reader.push(this.pending.slice(index));
      this.trial = { start: index, reader };
      return;
    }
  }

  /**
   * Moves past trials the text refutes, and confirms one the text bears out (something beyond its opener
   * passed as strict JSON): the prose before it is dropped and what its reader passed goes on.
   */
  private settle(): string {
    while (this.trial) {
      const { start, reader } = this.trial;
      if (reader.broken && !reader.complete) {
        this.trial = undefined;
        this.openTrial(start + 1);
        continue;
      }
      if (!reader.complete && reader.passed.replace(/\s+/g, '').length < 2) return '';
      this.value = reader;
      this.trial = undefined;
      this.pending = '';
      return reader.complete ? reader.passed.trimEnd() : reader.passed;
    }
    return '';
  }
}
