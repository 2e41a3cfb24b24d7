/** Where rendered calls meet text in `content`: one newline between them, added only where none is. */
// It depends on nothing but the text itself, so any chunking of the same reply lays out the same content.
const newline = '\n';

export class CallTextLayout {
  private lastCharacter: string | undefined;
  private afterCall = false;

  /** The text to emit for a text delta. */
  text(delta: string): string {
    if (delta === '') return '';
    const text = this.afterCall && !delta.startsWith(newline) ? newline + delta : delta;
    this.afterCall = false;
    this.lastCharacter = text.at(-1);
    return text;
  }

  /** The text to emit for one rendered call. */
  call(rendered: string): string {
    const text = this.lastCharacter !== undefined && this.lastCharacter !== newline ? newline + rendered : rendered;
    this.afterCall = true;
    this.lastCharacter = text.at(-1);
    return text;
  }
}

/** The inverse for history: the newline the layout may have put next to a call is not the model's text. */
export function trimCallSeparators(text: string, callBefore: boolean, callAfter: boolean): string {
  let result = text;
  if (callBefore && result.startsWith(newline)) result = result.slice(newline.length);
  if (callAfter && result.endsWith(newline)) result = result.slice(0, -newline.length);
  return result;
}
