/** How alike two prompts are: the token-level LCS ratio, 2·LCS / (|a| + |b|), from 0 (nothing shared) to 1 (same tokens). */
// Tokens are runs of letters, digits and underscores, and single other characters; whitespace only
// separates them, so re-indented JSON and a missing newline do not count, while a renamed marker, a
// moved section or a different wrapper does. 2·LCS / (|a| + |b|) is the ratio Python's difflib
// reports when its matching blocks form the longest common subsequence.
const tokenPattern = /[\p{L}\p{N}_]+|[^\s\p{L}\p{N}_]/gu;

export function promptTokens(text: string): string[] {
  return text.match(tokenPattern) ?? [];
}

export function promptSimilarity(a: string, b: string): number {
  const left = promptTokens(a);
  const right = promptTokens(b);
  if (left.length + right.length === 0) return 1;
  return (2 * longestCommonSubsequence(left, right)) / (left.length + right.length);
}

/** The classic dynamic programme over two rows: O(n·m) time, O(m) memory. */
function longestCommonSubsequence(left: readonly string[], right: readonly string[]): number {
  let previous = new Uint32Array(right.length + 1);
  let current = new Uint32Array(right.length + 1);
  for (const token of left) {
    for (let column = 1; column <= right.length; column += 1) {
      current[column] = right[column - 1] === token ? previous[column - 1]! + 1 : Math.max(previous[column]!, current[column - 1]!);
    }
    [previous, current] = [current, previous];
  }
  return previous[right.length]!;
}
