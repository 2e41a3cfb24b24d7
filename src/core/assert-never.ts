/** Exhaustiveness guard for `switch` statements over discriminated unions. */
export function assertNever(value: never, context = 'value'): never {
  throw new Error(`Unexpected ${context}: ${JSON.stringify(value)}`);
}
