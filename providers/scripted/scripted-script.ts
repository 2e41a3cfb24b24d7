/**
 * A script for the scripted provider: the turns it replays, read and validated from a YAML or JSON file.
 * Its types are derived from the schema (FromSchema), so the schema is the one source of the format.
 */
import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import { parse as parseYaml } from 'yaml';
import type { FromSchema } from 'json-schema-to-ts';
import { ConfigError } from '../../src/config/config-error.js';

const scriptSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['turns'],
  properties: {
    models: { type: 'array', items: { type: 'string', minLength: 1 } },
    turns: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        additionalProperties: false,
        properties: {
          content: { type: 'string' },
          reasoning: { type: 'string' },
          raw: { type: 'string' },
          finish: { enum: ['stop', 'length', 'content-filter'] },
          toolCalls: {
            type: 'array',
            items: {
              type: 'object',
              additionalProperties: false,
              required: ['name'],
              properties: { name: { type: 'string', minLength: 1 }, arguments: { type: 'object' } },
            },
          },
          error: {
            type: 'object',
            additionalProperties: false,
            required: ['status', 'message'],
            properties: { status: { type: 'integer', minimum: 400, maximum: 599 }, message: { type: 'string' } },
          },
        },
      },
    },
  },
} as const;

export type Script = FromSchema<typeof scriptSchema>;

/**
 * One reply. `raw` is the exact text a prompted model writes (markup included) and wins over the rest;
 * otherwise `content` and `toolCalls` are written as the model's family would write them (prompted lane)
 * or sent as structured calls (native lane). `error` plays an upstream that refuses the request.
 */
export type ScriptedTurn = Script['turns'][number];

export type ScriptedCall = NonNullable<ScriptedTurn['toolCalls']>[number];

/** Read once when the app is built, so a broken script stops the start like a broken config does. */
export function loadScript(path: string, providerName: string): Script {
  const where = `providers.${providerName}.script`;
  let parsed: unknown;
  try {
    parsed = parseYaml(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new ConfigError([`${where}: cannot read ${path}: ${(error as Error).message}`]);
  }
  const validate = new Ajv({ allErrors: true, strict: true }).compile(scriptSchema);
  if (!validate(parsed)) {
    const problems = (validate.errors ?? []).map(
      (error) => `${where} (${path})${error.instancePath.replace(/\//g, '.')}: ${error.message ?? 'is invalid'}`,
    );
    throw new ConfigError(problems);
  }
  return parsed as Script;
}
