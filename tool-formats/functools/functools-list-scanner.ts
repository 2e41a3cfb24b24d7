/** Finds the end of the list after `functools[`: its `]` after the last call object, or the last object itself. */
// The `]` counts only outside the objects (arguments hold arrays and strings with brackets). Text after
// a complete object that is neither `,` nor `]` ends the list there ("no closing marker required").
// Anything but an object or `]` right after the marker (`functools[0]` in prose) is no call list.
import { isSpaceCode, type BodyScanner, type BodyScanStep } from '../shared/body-scanner.js';
import { advanceJsonScan, JsonScanState } from '../shared/json-scan-state.js';

const openBrace = 0x7b;
const closeBracket = 0x5d;
const comma = 0x2c;

export function createFunctoolsListScanner(): BodyScanner {
  return new FunctoolsListScanner();
}

class FunctoolsListScanner implements BodyScanner {
  private phase: 'first' | 'object' | 'after' = 'first';
  private readonly state = new JsonScanState();

  scan(input: string, position: number): BodyScanStep {
    let index = position;
    for (;;) {
      switch (this.phase) {
        case 'first': {
          while (index < input.length && isSpaceCode(input.charCodeAt(index))) index++;
          if (index >= input.length) return { type: 'more', keepFrom: position };
          const code = input.charCodeAt(index);
          if (code === closeBracket) return { type: 'closed', bodyEnd: index, end: index + 1 };
          if (code !== openBrace) return { type: 'declined', resume: position, markerIsText: true };
          this.phase = 'object';
          break;
        }
        case 'object': {
          const completed = this.state.completedValues;
          index = advanceJsonScan(this.state, input, index, undefined, true);
          if (this.state.completedValues === completed) return { type: 'more', keepFrom: index };
          this.phase = 'after';
          break;
        }
        case 'after':
          return this.afterObject(input, index);
      }
    }
  }

  undecidedAtEnd(): boolean {
    return this.phase === 'first';
  }

  /** After an object: `,` and another object go on, `]` closes, anything else ends the list at the object. */
  private afterObject(input: string, objectEnd: number): BodyScanStep {
    let index = objectEnd;
    while (index < input.length && isSpaceCode(input.charCodeAt(index))) index++;
    if (index >= input.length) return { type: 'more', keepFrom: objectEnd };
    const code = input.charCodeAt(index);
    if (code === closeBracket) return { type: 'closed', bodyEnd: objectEnd, end: index + 1 };
    if (code !== comma) return { type: 'closed', bodyEnd: objectEnd, end: objectEnd };
    index++;
    while (index < input.length && isSpaceCode(input.charCodeAt(index))) index++;
    if (index >= input.length) return { type: 'more', keepFrom: objectEnd };
    if (input.charCodeAt(index) !== openBrace) return { type: 'closed', bodyEnd: objectEnd, end: objectEnd };
    this.phase = 'object';
    return this.scan(input, index);
  }
}
