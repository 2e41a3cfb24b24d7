/** Text collected piece by piece from a stream (one small piece per chunk), kept cheaply until it is joined once. */
// Hundreds of thousands of 4-character pieces alive at once would make every young-generation GC copy
// them; joining each batch as it fills keeps a few long strings instead, and each character is still
// copied only twice.
const batchSize = 256;

export class TextPieces {
  private readonly batches: string[] = [];
  private readonly recent: string[] = [];
  /** The collected text's length in UTF-16 code units. */
  length = 0;

  add(piece: string): void {
    if (piece === '') return;
    this.recent.push(piece);
    this.length += piece.length;
    if (this.recent.length === batchSize) {
      this.batches.push(this.recent.join(''));
      this.recent.length = 0;
    }
  }

  /** All the text collected so far. */
  join(): string {
    if (this.recent.length > 0) {
      this.batches.push(this.recent.join(''));
      this.recent.length = 0;
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
