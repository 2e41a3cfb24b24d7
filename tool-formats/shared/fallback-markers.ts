/** Which markers of other families a family's parser watches too: the distinctive ones only. */
// The model's own family decides first, and its parser reads all of its own markers. Another family's
// marker is a fallback (a model that slips into another template's syntax) only when ordinary prose
// cannot hold it by accident: markup and special tokens (`<tool_call>`, `<|python_tag|>`, `<｜DSML｜…>`,
// `[TOOL_CALLS]`, ```` ```json ````). Word-like markers (`functools[`, `Action: ```json`, `function
// call<|role_sep|>`, `>>>`, `**Tool Call:**`) count for their own family only: as fallbacks they made
// every parser's prose path stop at ordinary words, for syntax no other model writes.

const lessThan = 0x3c;
const openBracket = 0x5b;
const closeBracket = 0x5d;
const backtick = 0x60;
const firstNonAscii = 0x80;

/** Whether `marker` opens like markup or a special token rather than like a word of prose. */
export function isDistinctiveMarker(marker: string): boolean {
  const first = marker.charCodeAt(0);
  return first === lessThan || first === openBracket || first === closeBracket || first === backtick || first >= firstNonAscii;
}

/** `markers` as another family's parser sees them: all for the own family, the distinctive ones otherwise. */
export function visibleMarkers(markers: readonly string[], ownFamily: boolean): readonly string[] {
  return ownFamily ? markers : markers.filter(isDistinctiveMarker);
}
