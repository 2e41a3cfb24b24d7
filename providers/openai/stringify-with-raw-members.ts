/**
 * JSON.stringify of an object with some members' values given as ready-made JSON text, byte for byte
 * what JSON.stringify would write had those members held the values: the other members are
 * stringified in runs (in JSON.stringify's own order, that of Object.keys) and joined around them.
 * Lets a large value serialised once (a known tool list, a long prompt) be reused in every body.
 */

export function stringifyWithRawMembers(object: Record<string, unknown>, rawMembers: ReadonlyMap<string, string>): string {
  const parts: string[] = [];
  // Null prototypes, so that a member named `__proto__` stays a member.
  let run = Object.create(null) as Record<string, unknown>;
  const closeRun = () => {
    // Members JSON.stringify leaves out (undefined, functions) drop out of a run the same way.
    const members = JSON.stringify(run).slice(1, -1);
    if (members !== '') parts.push(members);
    run = Object.create(null) as Record<string, unknown>;
  };
  for (const name of Object.keys(object)) {
    const raw = rawMembers.get(name);
    if (raw === undefined) {
      run[name] = object[name];
    } else {
      closeRun();
      parts.push(`${JSON.stringify(name)}:${raw}`);
    }
  }
  closeRun();
  return `{${parts.join(',')}}`;
}
