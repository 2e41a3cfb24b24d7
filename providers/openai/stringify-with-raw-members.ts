/**
 * JSON.stringify of an object with some members' values given as ready-made JSON, byte for byte
 * what JSON.stringify would write had those members held the values: the other members are
 * stringified in runs (in JSON.stringify's own order, that of Object.keys) and joined around them.
 * Lets a large value serialised once (a known tool list, a long prompt) be reused in every body.
 *
 * The result is a list of pieces, text and bytes: a large value is kept as UTF-8 bytes, encoded
 * once, so a 64 KB tool list is neither concatenated into a new string nor re-encoded per request;
 * `joinJsonPieces` copies the pieces into one buffer for the socket.
 */

/** A piece of JSON text: a string, or the same text already encoded as UTF-8. */
export type JsonPiece = string | Buffer;

/** The members of `run`, without braces, as JSON.stringify writes them (members it leaves out drop out the same way). */
function membersOf(run: Record<string, unknown>): string {
  return JSON.stringify(run).slice(1, -1);
}

/**
 * Adds a member to a run. The run is a plain object, not a null-prototype one: V8 makes those in
 * dictionary mode, and JSON.stringify then takes its slow path, a megamorphic property load per member
 * (about 2 k instructions a request, counted). A member named `__proto__` is defined rather than assigned, so
 * that it stays a member instead of setting the prototype.
 */
function addMember(run: Record<string, unknown>, name: string, value: unknown): void {
  if (name === '__proto__') Object.defineProperty(run, name, { value, enumerable: true, writable: true, configurable: true });
  else run[name] = value;
}

export function stringifyWithRawMembers(
  object: Record<string, unknown>,
  rawMembers: ReadonlyMap<string, readonly JsonPiece[]>,
): JsonPiece[] {
  const pieces: JsonPiece[] = ['{'];
  let written = false;
  let run: Record<string, unknown> | undefined;
  for (const name of Object.keys(object)) {
    const raw = rawMembers.get(name);
    if (raw === undefined) {
      run ??= {};
      addMember(run, name, object[name]);
      continue;
    }
    const members = run ? membersOf(run) : '';
    run = undefined;
    if (members !== '') {
      pieces.push(written ? `,${members}` : members);
      written = true;
    }
    pieces.push(`${written ? ',' : ''}${JSON.stringify(name)}:`, ...raw);
    written = true;
  }
  const members = run ? membersOf(run) : '';
  if (members !== '') pieces.push(written ? `,${members}` : members);
  pieces.push('}');
  return pieces;
}

/** The pieces as one UTF-8 buffer. */
export function joinJsonPieces(pieces: readonly JsonPiece[]): Buffer {
  return Buffer.concat(pieces.map((piece) => (typeof piece === 'string' ? Buffer.from(piece, 'utf8') : piece)));
}
