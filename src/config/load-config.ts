/** Loads the configuration: a YAML/JSON file (or the environment's providers), ${ENV}, validation, defaults. */
import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { ConfigError } from './config-error.js';
import type { GatewayConfig } from './config-types.js';
import type { ProviderDiscovery } from '../core/provider-types.js';
import { discoverProviders } from './discover-providers.js';
import { interpolateEnvironment, MissingEnvironmentVariableError } from './interpolate-environment.js';
import { normalizeConfig, type ServerOverrides } from './normalize-config.js';
import { compileConfigFileValidator } from './validate-config-file.js';

export type LoadConfigOptions = {
  /** Path to a YAML or JSON file; without one, providers come from the environment. */
  path?: string;
  environment: NodeJS.ProcessEnv;
  overrides?: ServerOverrides;
  /** How providers are found without a file (the provider registry's `providerDiscovery`); without it, a file is required. */
  discovery?: ProviderDiscovery;
};

export type LoadedConfig = {
  config: GatewayConfig;
  /** Human-readable notes for the startup log (where the config came from, what was found). */
  notes: string[];
};

async function readConfigFile(path: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new ConfigError([`cannot read config file ${path}: ${(error as Error).message}`]);
  }
  try {
    // YAML 1.2 is a superset of JSON, so one parser reads both.
    return parseYaml(text) ?? {};
  } catch (error) {
    throw new ConfigError([`cannot parse config file ${path}: ${withoutSourceExcerpt((error as Error).message)}`]);
  }
}

/**
 * The yaml parser ends its message with the lines around the error (`… at line 4, column 12:` and an
 * excerpt). Those lines may hold a key written into the file, and the message goes to the log (a reload's
 * refusal too, logged under the old config's redactor, which knows none of the new file's secrets) and
 * to `POST /admin/reload`'s answer: the line and column say where, without the text.
 */
function withoutSourceExcerpt(message: string): string {
  const excerpt = message.indexOf(':\n\n');
  return excerpt === -1 ? message : message.slice(0, excerpt);
}

/**
 * A Vertex key file is read by google-auth-library only on the first request, so a missing or broken one
 * would start a gateway whose every Vertex request is a 502. A JSON key file (a service account's key,
 * a workload identity federation config) must parse; other forms the library reads (.p12, .pem) need only
 * be readable. The message never quotes the file: it holds a private key, and JSON.parse's message
 * quotes the text around the error.
 */
async function keyFileProblem(path: string): Promise<string | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    return `cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? 'unreadable'})`;
  }
  if (!path.toLowerCase().endsWith('.json')) return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) return undefined;
  } catch {
    // Falls through to the one message below.
  }
  return `${path} is not a JSON credentials file (a service account's key or a workload identity federation config)`;
}

export async function loadConfig(options: LoadConfigOptions): Promise<LoadedConfig> {
  const overrides = options.overrides ?? {};
  const validateConfigFile = compileConfigFileValidator();
  if (options.path) {
    const raw = await readConfigFile(options.path);
    let interpolated: unknown;
    try {
      interpolated = interpolateEnvironment(raw, options.environment);
    } catch (error) {
      if (error instanceof MissingEnvironmentVariableError) throw new ConfigError([error.message]);
      throw error;
    }
    const file = validateConfigFile(interpolated);
    const config = normalizeConfig(file, overrides);
    const keyFileProblems: string[] = [];
    for (const provider of Object.values(config.providers)) {
      // A script is found next to the config that names it, wherever the gateway was started from.
      if (provider.script !== undefined) provider.script = resolve(dirname(options.path), provider.script);
      // So is a Vertex service-account key file.
      if (provider.vertex?.keyFile !== undefined) {
        provider.vertex.keyFile = resolve(dirname(options.path), provider.vertex.keyFile);
        const problem = await keyFileProblem(provider.vertex.keyFile);
        if (problem) keyFileProblems.push(`providers.${provider.name}.keyFile: ${problem}`);
      }
    }
    if (keyFileProblems.length) throw new ConfigError(keyFileProblems);
    return { config, notes: [`config from ${options.path}`] };
  }
  if (!options.discovery) throw new ConfigError(['no config file given (pass --config FILE)']);
  const discovered = await discoverProviders(options.environment, options.discovery);
  const file = validateConfigFile(discovered.file);
  return { config: normalizeConfig(file, overrides), notes: ['no config file: using the environment', ...discovered.notes] };
}
