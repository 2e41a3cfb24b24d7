/**
 * Body validation with a known (deeply frozen) tool list: the list is validated once, the verdict
 * is the full schema's, and errors still come from the full validator.
 */
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { RequestCaches } from '../../../src/core/request-caches.js';
import { shareToolList } from '../../../src/core/shared-tool-list.js';
import { BodyValidators } from '../../../routes/shared/body-validator.js';
import { compileKnownListCheck } from '../../../routes/shared/known-list-check.js';
import { chatCompletionRequestSchema } from '../../../routes/chat-completions/chat-completion-request-schema.js';

const tool = (name: string) => ({ type: 'function', function: { name, parameters: { type: 'object' } } });
const messages = [{ role: 'user', content: 'hi' }];

function errorOf(validate: (body: unknown) => unknown, body: unknown): unknown {
  try {
    validate(body);
  } catch (error) {
    return { message: (error as Error).message, param: (error as { param?: unknown }).param };
  }
  return undefined;
}

describe('compileKnownListCheck', () => {
  function countingAjv() {
    const counter = { lists: 0 };
    const ajv = new Ajv({ strict: false });
    ajv.addKeyword({ keyword: 'countedList', validate: () => ((counter.lists += 1), true) });
    return { ajv, counter };
  }
  const schema = {
    type: 'object',
    required: ['model'],
    properties: { model: { type: 'string' }, tools: { type: 'array', countedList: true, items: { type: 'object' } } },
  };

  it('validates a known list once and the rest of the body every time', () => {
    const { ajv, counter } = countingAjv();
    const check = compileKnownListCheck(ajv, schema)!;
    const verdicts = new RequestCaches().toolListVerdicts;
    const tools = shareToolList([{ a: 1 }]);
    expect(check({ model: 'm', tools }, verdicts)).toBe(true);
    expect(check({ model: 'n', tools }, verdicts)).toBe(true);
    expect(counter.lists).toBe(1);
    expect(check({ model: 1, tools }, verdicts)).toBe(false);
    expect(check({ tools }, verdicts)).toBe(false);
  });

  it('says no for a list that is not known or not valid, and remembers the latter', () => {
    const { ajv, counter } = countingAjv();
    const check = compileKnownListCheck(ajv, schema)!;
    const verdicts = new RequestCaches().toolListVerdicts;
    expect(check({ model: 'm', tools: [{ a: 1 }] }, verdicts)).toBe(false);
    const invalid = shareToolList([1]);
    expect(check({ model: 'm', tools: invalid }, verdicts)).toBe(false);
    expect(check({ model: 'm', tools: invalid }, verdicts)).toBe(false);
    expect(counter.lists).toBe(1);
  });

  it('gives no shortcut when the top-level schema is not property by property', () => {
    const ajv = new Ajv({ strict: false });
    for (const extra of [
      { additionalProperties: false },
      { anyOf: [{ required: ['model'] }] },
      { if: { required: ['tools'] }, then: { required: ['model'] } },
    ]) {
      expect(compileKnownListCheck(ajv, { ...schema, ...extra })).toBeUndefined();
    }
    expect(compileKnownListCheck(ajv, { type: 'object', properties: { model: { type: 'string' } } })).toBeUndefined();
    expect(
      compileKnownListCheck(ajv, { type: 'object', properties: { tools: { $ref: '#/properties/model' }, model: {} } }),
    ).toBeUndefined();
  });
});

describe('BodyValidators with a known tool list', () => {
  const validate = new BodyValidators().for<Record<string, unknown>>(chatCompletionRequestSchema);

  it('accepts and rejects exactly what it does for the same list not known, with the same errors', () => {
    const bodies = [
      { model: 'local/m', messages, tools: [tool('a'), tool('b')] },
      { model: 'local/m', messages: [], tools: [tool('a')] },
      { model: 'local/m', messages, tools: [tool('a'), tool('bad name!')] },
      { model: 'local/m', messages, tools: [tool('a'), { type: 'function' }] },
      { messages, tools: [tool('a')] },
      { model: 'local/m', messages, tools: [tool('a')], temperature: 'hot' },
    ];
    for (const body of bodies) {
      const known = { ...body, tools: shareToolList(structuredClone(body.tools)) };
      expect(errorOf(validate, known)).toEqual(errorOf(validate, body));
      expect(errorOf(validate, known)).toEqual(errorOf(validate, body));
    }
    expect(errorOf(validate, bodies[0])).toBeUndefined();
    expect(errorOf(validate, bodies[2])).toMatchObject({ param: 'tools[1].function.name' });
  });
});
