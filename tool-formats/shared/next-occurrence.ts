/** Finds the next occurrence of a marker in a fixed text, searching again only once the reader has passed it. */
// Body grammars that look for several markers ahead of each value would otherwise re-scan the rest
// of the body for every value; with this the searches stay linear in the body's length.
export class NextOccurrence {
  private found = -1;
  private searchedFrom = Number.POSITIVE_INFINITY;

  constructor(
    private readonly text: string,
    private readonly marker: string,
  ) {}

  /** The index of the marker at or after `position`, or -1. */
  from(position: number): number {
    const stillValid = this.searchedFrom <= position && (this.found === -1 || this.found >= position);
    if (!stillValid) {
      this.found = this.text.indexOf(this.marker, position);
      this.searchedFrom = position;
    }
    return this.found;
  }
}
