/** Validates gateway output against OpenAI's official Chat Completions schemas (a fixture copied from OpenAI's OpenAPI document). */
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';

const fixture = JSON.parse(readFileSync(new URL('../fixtures/openai-chat-completion-schemas.json', import.meta.url), 'utf8')) as {
  components: Record<string, unknown>;
};

const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
ajv.addSchema({ $id: 'openai', components: fixture.components });

export type OpenAiSchemaName = 'CreateChatCompletionResponse' | 'CreateChatCompletionStreamResponse';

/** The schema errors of `value` (empty when it conforms), as readable strings. */
export function openAiSchemaErrors(name: OpenAiSchemaName, value: unknown): string[] {
  const validate = ajv.getSchema(`openai#/components/schemas/${name}`);
  if (!validate) throw new Error(`no schema ${name} in the fixture`);
  if (validate(value)) return [];
  return (validate.errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message ?? 'is invalid'}`);
}
