/** Finds the body after Functionary v3.2's `>>>`: a recipient line, then the JSON arguments, or a content header. */
// `>>>NAME\n{…}` is a call whose body ends right after its JSON; `>>>all\n` opens plain text (the answer),
// and is dropped. Anything else after `>>>` (a Python prompt's `>>> print(1)`, a quote marker) is no
// call, and the marker stays text. Until the recipient line is complete, the scanner holds it unread.
// @see https://github.com/ggml-org/llama.cpp/blob/master/models/templates/meetkai-functionary-medium-v3.2.jinja
import { isSpaceCode, type BodyScanner, type BodyScanStep } from '../shared/body-scanner.js';
import { advanceJsonScan, JsonScanState } from '../shared/json-scan-state.js';
import { isNameCode } from '../shared/is-name-code.js';

export const recipientMarker = '>>>';
/** The recipient of a message that is text for the user, not a call. */
export const contentRecipient = 'all';

const newline = 0x0a;
const carriageReturn = 0x0d;
const openBrace = 0x7b;
/** Longer recipient lines are prose, not a tool name: decided without waiting further. */
const longestName = 128;

export function createRecipientScanner(): BodyScanner {
  return new RecipientScanner();
}

class RecipientScanner implements BodyScanner {
  private phase: 'recipient' | 'arguments' = 'recipient';
  private readonly state = new JsonScanState();

  scan(input: string, position: number): BodyScanStep {
    if (this.phase === 'arguments') return this.scanArguments(input, position);
    const more: BodyScanStep = { type: 'more', keepFrom: position };
    const declined: BodyScanStep = { type: 'declined', resume: position, markerIsText: true };
    let index = position;
    // `>>>>>>all`: the template's marker followed by the model's own.
    while (input.startsWith(recipientMarker, index)) index += recipientMarker.length;
    if (index >= input.length || recipientMarker.startsWith(input.slice(index))) return more;
    const nameStart = index;
    while (index < input.length && index - nameStart <= longestName && isNameCode(input.charCodeAt(index))) index++;
    if (index >= input.length) return more;
    if (index === nameStart || index - nameStart > longestName) return declined;
    if (input.charCodeAt(index) === carriageReturn) index++;
    if (index >= input.length) return more;
    if (input.charCodeAt(index) !== newline) return declined;
    index++;
    if (input.slice(nameStart, index).trimEnd() === contentRecipient) return { type: 'declined', resume: index, markerIsText: false };
    while (index < input.length && isSpaceCode(input.charCodeAt(index))) index++;
    if (index >= input.length) return more;
    // Only JSON arguments: Functionary's raw Python for its code interpreter is not a call here.
    if (input.charCodeAt(index) !== openBrace) return declined;
    this.phase = 'arguments';
    return this.scanArguments(input, index);
  }

  undecidedAtEnd(): boolean {
    return this.phase === 'recipient';
  }

  private scanArguments(input: string, position: number): BodyScanStep {
    const index = advanceJsonScan(this.state, input, position, undefined, true);
    return this.state.completedValues > 0 ? { type: 'closed', bodyEnd: index, end: index } : { type: 'more', keepFrom: index };
  }
}
