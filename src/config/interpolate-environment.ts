/** Replaces `${VAR}` and `${VAR:-default}` in every string of a parsed config with environment values. */

export class MissingEnvironmentVariableError extends Error {
  constructor(
    readonly path: string,
    readonly variable: string,
  ) {
    super(`${path}: environment variable ${variable} is not set`);
  }
}

const placeholder = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

function interpolateString(text: string, environment: NodeJS.ProcessEnv, path: string): string {
  return text.replace(placeholder, (_whole, name: string, fallback: string | undefined) => {
    const value = environment[name];
    if (value !== undefined && value !== '') return value;
    if (fallback !== undefined) return fallback;
    throw new MissingEnvironmentVariableError(path, name);
  });
}

export function interpolateEnvironment(value: unknown, environment: NodeJS.ProcessEnv, path = ''): unknown {
  if (typeof value === 'string') return interpolateString(value, environment, path || '(root)');
  if (Array.isArray(value)) return value.map((item, index) => interpolateEnvironment(item, environment, `${path}[${index}]`));
  if (value && typeof value === 'object') {
    const result: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      result[key] = interpolateEnvironment(item, environment, path ? `${path}.${key}` : key);
    }
    return result;
  }
  return value;
}
