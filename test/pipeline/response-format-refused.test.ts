/**
 * Which upstream errors are a refusal of the native response format (the format then goes into the prompt),
 * in the words the real hosts use, and which are not (the client's schema, another feature refused).
 */
import { describe, expect, it } from 'vitest';
import { gatewayError } from '../../src/core/gateway-error.js';
import { isResponseFormatRefusal } from '../../src/pipeline/response-format-refused.js';

function upstream400(message: string): Error {
  return gatewayError('upstream_http_error', { message, status: 400, upstreamStatus: 400 });
}

describe('isResponseFormatRefusal', () => {
  it("Vertex AI's organization policy, which names the feature, not the field", () => {
    expect(
      isResponseFormatRefusal(
        upstream400(
          'Organization Policy constraint constraints/vertexai.allowedPartnerModelFeatures violated for `projects/1` attempting to use a disallowed feature structured_outputs for Partner model claude-sonnet-4-6. Please contact your organization administrator to fix this violation by adding `publishers/anthropic/models/claude-sonnet-4-6:structured_outputs` to the allowed values.',
        ),
      ),
    ).toBe(true);
    // Only the allowed value quoted (vercel/ai#20717 quotes just that).
    expect(isResponseFormatRefusal(upstream400('`publishers/anthropic/models/claude-opus-4-6:structured_outputs`'))).toBe(true);
  });

  it('a message that says structured outputs are not supported, in words', () => {
    expect(isResponseFormatRefusal(upstream400('Structured outputs are not supported for this model.'))).toBe(true);
    expect(isResponseFormatRefusal(upstream400("This model doesn't support structured outputs."))).toBe(true);
  });

  it("an older llama-server's parser refusing json_schema (a 500) and an older Ollama's format binding (a 400)", () => {
    const llamaServer = 'response_format type must be one of "text" or "json_object", but got: json_schema';
    expect(isResponseFormatRefusal(gatewayError('upstream_http_error', { message: llamaServer, status: 502, upstreamStatus: 500 }))).toBe(
      true,
    );
    expect(
      isResponseFormatRefusal(upstream400('json: cannot unmarshal object into Go struct field ChatRequest.format of type string')),
    ).toBe(true);
    // Any other 500 is a failure, even naming the field.
    expect(
      isResponseFormatRefusal(
        gatewayError('upstream_http_error', { message: 'response_format crashed the worker', status: 502, upstreamStatus: 500 }),
      ),
    ).toBe(false);
  });

  it('not the same policy refusing another feature, nor a schema problem, nor a 5xx', () => {
    expect(
      isResponseFormatRefusal(
        upstream400(
          'Organization Policy constraint constraints/vertexai.allowedPartnerModelFeatures violated for `projects/1` attempting to use a disallowed feature web_search for Partner model claude-opus-4-6.',
        ),
      ),
    ).toBe(false);
    expect(
      isResponseFormatRefusal(upstream400("output_config.format.schema: For 'integer' type, property 'minimum' is not supported")),
    ).toBe(false);
    expect(
      isResponseFormatRefusal(
        gatewayError('upstream_http_error', { message: 'structured outputs are not supported', status: 503, upstreamStatus: 503 }),
      ),
    ).toBe(false);
  });
});
