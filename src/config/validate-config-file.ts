/** Validates a parsed config file with ajv and reports errors as `providers.local.type: must be one of …`. */
import { Ajv, type ErrorObject } from 'ajv';
import { ConfigError } from './config-error.js';
import { configFileSchema, providerModelPattern, type ConfigFile } from './config-schema.js';

function dottedPath(instancePath: string): string {
  return instancePath
    .split('/')
    .slice(1)
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'))
    .join('.');
}

function describe(error: ErrorObject): string {
  const path = dottedPath(error.instancePath);
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'enum':
      return `${path}: must be one of ${(params.allowedValues as unknown[]).join(', ')}`;
    case 'additionalProperties':
      return `${path ? `${path}.` : ''}${String(params.additionalProperty)}: is not a known setting`;
    case 'required':
      return `${path ? `${path}.` : ''}${String(params.missingProperty)}: is required`;
    case 'propertyNames':
      return `${path ? `${path}.` : ''}${String(params.propertyName)}: provider names use letters, digits, '.', '_' and '-' (no '/')`;
    case 'pattern':
      if (path.endsWith('baseUrl')) return `${path}: must be an http(s) URL`;
      // Aliases and deployment targets: a name there (another alias, a deployment) is not followed.
      if (params.pattern === providerModelPattern)
        return `${path}: must be a configured provider's model as provider/model (not an alias or a deployment name)`;
      return `${path}: ${error.message ?? 'is invalid'}`;
    default:
      return `${path || '(root)'}: ${error.message ?? 'is invalid'}`;
  }
}

/** Checks a parsed config file and returns it with its types coerced, or throws a ConfigError listing every problem. */
export type ConfigFileValidator = (value: unknown) => ConfigFile;

/**
 * Compiles the config file's schema (tens to hundreds of milliseconds of ajv, kept in the validator rather
 * than in a module): the loader compiles it once per load, and tests once per file.
 */
export function compileConfigFileValidator(): ConfigFileValidator {
  // coerceTypes lets `port: ${PORT}` (a string after interpolation) validate as an integer.
  const validate = new Ajv({ allErrors: true, coerceTypes: true, strict: true }).compile(configFileSchema);
  return (value) => {
    const copy = structuredClone(value ?? {});
    if (!validate(copy)) {
      // propertyNames errors come with a companion error on the same path; keep the clearer one only.
      // An `if` error only repeats its `then` branch's own, clearer error.
      const reported = (validate.errors ?? []).filter(
        (error) => (error.propertyName === undefined || error.keyword === 'propertyNames') && error.keyword !== 'if',
      );
      const problems = [...new Set(reported.map(describe))];
      throw new ConfigError(problems);
    }
    return copy as ConfigFile;
  };
}
