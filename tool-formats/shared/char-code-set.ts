/** A set of UTF-16 code units with an array fast path for ASCII, for the per-character scanning loops. */
export class CharCodeSet {
  private readonly ascii = new Uint8Array(128);
  private readonly other = new Set<number>();

  constructor(codes: Iterable<number> = []) {
    for (const code of codes) this.add(code);
  }

  static ofFirstCharacters(strings: Iterable<string>): CharCodeSet {
    const set = new CharCodeSet();
    for (const text of strings) if (text.length > 0) set.add(text.charCodeAt(0));
    return set;
  }

  add(code: number): void {
    if (code < 128) this.ascii[code] = 1;
    else this.other.add(code);
  }

  has(code: number): boolean {
    return code < 128 ? this.ascii[code] === 1 : this.other.size > 0 && this.other.has(code);
  }
}
