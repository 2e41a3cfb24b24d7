/** The fields each fake server reads a grammar from, with the real servers' precedence, and llama.cpp's refusals. */
import { describe, expect, it } from 'vitest';
import {
  llamaSchemaConversionError,
  llamaServerConstraint,
  ollamaFormatConstraint,
  sglangConstraint,
  vllmConstraint,
} from './constrained-decoding.js';

const schema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };
const other = { type: 'object', properties: { unit: { type: 'string' } } };

describe('vLLM', () => {
  it('reads structured_outputs first, then response_format, then the pre-0.12 guided fields', () => {
    expect(vllmConstraint({ structured_outputs: { json: schema }, response_format: { type: 'json_object' } })).toEqual({ schema });
    expect(vllmConstraint({ response_format: { type: 'json_schema', json_schema: { name: 'x', schema } } })).toEqual({ schema });
    expect(vllmConstraint({ guided_json: schema })).toEqual({ schema });
    expect(vllmConstraint({ response_format: { type: 'json_object' } })).toEqual({ schema: { type: 'object' } });
    expect(vllmConstraint({ response_format: { type: 'text' } })).toBeUndefined();
  });
});

describe('SGLang', () => {
  it("reads response_format alone: json_schema's schema, json_object as any object", () => {
    expect(sglangConstraint({ response_format: { type: 'json_schema', json_schema: { name: 'x', schema } } })).toEqual({ schema });
    expect(sglangConstraint({ response_format: { type: 'json_object' } })).toEqual({ schema: { type: 'object' } });
    expect(sglangConstraint({ response_format: { type: 'text' } })).toBeUndefined();
    // vLLM's fields are not SGLang's: its chat request has no structured_outputs or guided_json.
    expect(sglangConstraint({ structured_outputs: { json: schema }, guided_json: schema })).toBeUndefined();
  });
});

describe('llama-server', () => {
  it('lets response_format override a body json_schema, except a json_object without a schema', () => {
    expect(llamaServerConstraint({ json_schema: other, response_format: { type: 'json_schema', json_schema: { schema } } })).toEqual({
      schema,
    });
    expect(llamaServerConstraint({ json_schema: other, response_format: { type: 'json_object' } })).toEqual({ schema: other });
    expect(llamaServerConstraint({ response_format: { type: 'json_object', schema } })).toEqual({ schema });
    expect(llamaServerConstraint({ response_format: { type: 'json_object' } })).toEqual({ schema: { type: 'object' } });
  });

  it('refuses a type json-schema-to-grammar has no rule for, quoting the schema as ordered_json dumps it', () => {
    expect(llamaSchemaConversionError({ schema: { type: 'object', properties: { v: { type: 'float', description: 'd' } } } })).toBe(
      'JSON schema conversion failed:\nUnrecognized schema: {"type":"float","description":"d"}',
    );
    // One branch per type of a list, each dumped with its one type.
    expect(llamaSchemaConversionError({ schema: { type: ['string', 'float'] } })).toBe(
      'JSON schema conversion failed:\nUnrecognized schema: {"type":"float"}',
    );
    expect(llamaSchemaConversionError({ schema })).toBeUndefined();
  });

  it('reads a schema with no type and no structural keyword as any value (ggml-org/llama.cpp#20021)', () => {
    const anyValue = {
      type: 'object',
      properties: { value: { description: 'Value for add/replace/test operations' }, other: { required: ['x'] } },
    };
    expect(llamaSchemaConversionError({ schema: anyValue })).toBeUndefined();
    expect(llamaSchemaConversionError({ schema: { type: 'array', items: { title: 'anything' } } })).toBeUndefined();
  });

  it('resolves local refs token by token without JSON Pointer unescaping, and refuses what it cannot find', () => {
    const escaped = { type: 'object', properties: { a: { $ref: '#/$defs/a~1b' } }, $defs: { 'a/b': { type: 'string' } } };
    expect(llamaSchemaConversionError({ schema: escaped })).toBe(
      'JSON schema conversion failed:\nError resolving ref #/$defs/a~1b: a~1b not in {"a/b":{"type":"string"}}',
    );
    const plain = { type: 'object', properties: { a: { $ref: '#/$defs/ab' } }, $defs: { ab: { type: 'string' } } };
    expect(llamaSchemaConversionError({ schema: plain })).toBeUndefined();
    // The target is visited: its own refusals are found through the ref.
    const badTarget = { type: 'object', properties: { a: { $ref: '#/$defs/ab' } }, $defs: { ab: { type: 'float' } } };
    expect(llamaSchemaConversionError({ schema: badTarget })).toContain('Unrecognized schema: {"type":"float"}');
    expect(llamaSchemaConversionError({ schema: { $ref: 'other.json#/a' } })).toBe(
      'JSON schema conversion failed:\nUnsupported ref: other.json#/a',
    );
  });

  it("refuses a string's pattern not anchored at both ends (_visit_pattern), and reads an anchored one", () => {
    const withPattern = (pattern: string) => ({ schema: { type: 'object', properties: { city: { type: 'string', pattern } } } });
    expect(llamaSchemaConversionError(withPattern('\\S'))).toBe(
      "JSON schema conversion failed:\nPattern must start with '^' and end with '$'",
    );
    expect(llamaSchemaConversionError(withPattern('^\\S'))).toContain('Pattern must start with');
    expect(llamaSchemaConversionError(withPattern('^\\S+$'))).toBeUndefined();
    // An enum is read before the pattern (visit's order), so its pattern is never looked at.
    expect(llamaSchemaConversionError({ schema: { type: 'string', enum: ['a'], pattern: 'a' } })).toBeUndefined();
  });
});

describe('Ollama', () => {
  it('takes "json" or a schema in format, nothing else', () => {
    expect(ollamaFormatConstraint('json')).toEqual({ schema: { type: 'object' } });
    expect(ollamaFormatConstraint(schema)).toEqual({ schema });
    expect(ollamaFormatConstraint(undefined)).toBeUndefined();
  });
});
