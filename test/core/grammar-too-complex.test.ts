/** Which upstream errors say the grammar compiler gave up on a schema, in the words Claude and Bedrock use. */
import { describe, expect, it } from 'vitest';
import { gatewayError } from '../../src/core/gateway-error.js';
import { isGrammarTooComplex } from '../../src/core/grammar-too-complex.js';

function upstream(status: number, message: string): Error {
  return gatewayError('upstream_http_error', { message, status, upstreamStatus: status });
}

describe('isGrammarTooComplex', () => {
  it.each([
    'Schema is too complex for compilation.',
    'The compiled grammar is too large, which would cause performance issues. Simplify your tool schemas or reduce the number of strict tools.',
    'Grammar compilation timed out.',
    // Bedrock's Converse passes Claude's words on, and has its own shorter one.
    'The model returned the following errors: Schema is too complex.',
    'Schemas contains too many optional parameters (30), which would make grammar compilation inefficient. Reduce the number of optional parameters in your tool schemas (limit: 24).',
    // llama-server's converter, for a schema it has no rule for (ggml-org/llama.cpp#19716).
    'JSON schema conversion failed:\nUnrecognized schema: {"description":"Value for add/replace/test operations"}',
  ])('a 400 saying %s', (message) => {
    expect(isGrammarTooComplex(upstream(400, message))).toBe(true);
  });

  it('not a schema keyword outside the subset (the client fixes that), nor a 5xx, nor a plain error', () => {
    expect(isGrammarTooComplex(upstream(400, "output_config.format.schema: For 'integer' type, property 'minimum' is not supported"))).toBe(
      false,
    );
    expect(isGrammarTooComplex(upstream(500, 'Schema is too complex for compilation.'))).toBe(false);
    expect(isGrammarTooComplex(new Error('Schema is too complex for compilation.'))).toBe(false);
  });
});
