/**
 * What a deployment's or an alias's name stands for, in words for a config message. Prices and a key's
 * `models` are globs over the `provider/model` a request reaches; such a name (without a slash) never
 * matches one, so an entry written with it would be ignored without a word.
 */
export type ModelNames = {
  deployments?: Record<string, { targets: { model: string }[] }> | undefined;
  aliases?: Record<string, string> | undefined;
};

/** `'coder' is a deployment` / `'fast' is an alias`, and the targets to write instead; undefined for any other glob. */
export function namedModelTargets(glob: string, names: ModelNames): { what: string; targets: string } | undefined {
  // A name with a slash may also be a real provider/model address (reached on the /{provider}/v1/… routes).
  if (glob.includes('/')) return undefined;
  const deployment = names.deployments && Object.hasOwn(names.deployments, glob) ? names.deployments[glob] : undefined;
  if (deployment)
    return {
      what: `'${glob}' is a deployment`,
      targets: `its targets (${deployment.targets.map((target) => `'${target.model}'`).join(', ')})`,
    };
  if (names.aliases && Object.hasOwn(names.aliases, glob))
    return { what: `'${glob}' is an alias`, targets: `its target ('${names.aliases[glob]}')` };
  return undefined;
}
