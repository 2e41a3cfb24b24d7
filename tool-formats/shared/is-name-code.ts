/** The characters tool names and call ids are made of, for scanners that read a name character by character. */

/** Letters, digits, `_`, `-`, `.` and `:`. */
export function isNameCode(code: number): boolean {
  return (
    (code >= 0x61 && code <= 0x7a) ||
    (code >= 0x41 && code <= 0x5a) ||
    (code >= 0x30 && code <= 0x39) ||
    code === 0x5f ||
    code === 0x2d ||
    code === 0x2e ||
    code === 0x3a
  );
}
