/** Name globs as operators write them in config: `*` is any run of characters (slashes included), `?` one. */

export function globToRegExp(glob: string): RegExp {
  let source = '';
  for (const character of glob) {
    if (character === '*') source += '.*';
    else if (character === '?') source += '.';
    else source += character.replace(/[.+^${}()|[\]\\/-]/g, '\\$&');
  }
  return new RegExp(`^${source}$`);
}

/** True when `name` matches any of the globs. */
export function matchesAny(patterns: readonly RegExp[], name: string): boolean {
  for (const pattern of patterns) if (pattern.test(name)) return true;
  return false;
}
