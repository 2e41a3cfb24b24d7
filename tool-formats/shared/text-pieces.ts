/** Text collected piece by piece from a stream (one small piece per chunk), kept cheaply until it is joined once. */
// Hundreds of thousands of 4-character pieces alive at once would make every young-generation GC copy
// them; joining each batch as it fills keeps a few long strings instead, and each character is still
// copied only twice.
const batchSize = 256;

export class TextPieces {
  private readonly batches: string[] = [];
  /**
   * The batch being filled, its first `count` slots. Written by index and never shrunk: an array emptied
   * with `length = 0` drops its backing store and grows it again, copying, for every batch. It grows by
   * appends during the first batch only, so a short body's collector stays small.
   */
  private readonly recent: string[] = [];
  private count = 0;
  /** The collected text's length in UTF-16 code units. */
  length = 0;

  add(piece: string): void {
    if (piece === '') return;
    const recent = this.recent;
    recent[this.count++] = piece;
    this.length += piece.length;
    if (this.count === batchSize) {
      this.batches.push(recent.join(''));
      this.count = 0;
    }
  }

  /**
   * Empties the collector for the next text, keeping its batch slots: a parser reuses one for every call
   * body, so that each call does not grow a new array piece by piece. The slots still refer to the last
   * batch's pieces (at most `batchSize` short strings) until they are overwritten.
   */
  clear(): void {
    this.batches.length = 0;
    this.count = 0;
    this.length = 0;
  }

  /** All the text collected so far. */
  join(): string {
    if (this.count > 0) {
      const recent = this.recent;
      this.batches.push(this.count === recent.length ? recent.join('') : recent.slice(0, this.count).join(''));
      this.count = 0;
    }
    const batches = this.batches;
    if (batches.length === 0) return '';
    if (batches.length > 1) {
      // Replaced in place (no `splice`, which would allocate the array of removed batches).
      const joined = batches.join('');
      batches.length = 1;
      batches[0] = joined;
    }
    return batches[0] as string;
  }
}
