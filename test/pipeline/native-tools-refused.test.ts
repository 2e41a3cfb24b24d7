/** Which upstream errors mean "this server will not take tools for this model", in the servers' own words. */
import { describe, expect, it } from 'vitest';
import { gatewayError } from '../../src/core/gateway-error.js';
import { errorFromUpstreamStatus } from '../../src/http/upstream-error.js';
import { isNativeToolsRefusal } from '../../src/pipeline/native-tools-refused.js';

const upstream = (status: number, message: string) => errorFromUpstreamStatus({ status, body: { error: { message } }, provider: 'local' });

describe('isNativeToolsRefusal', () => {
  it.each([
    [400, '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set'],
    [400, 'tool_choice="required" requires --tool-call-parser to be set'],
    // llama-server without --jinja answers with a 500, which the gateway passes on as a 502 naming it.
    [500, 'tools param requires --jinja flag'],
    [400, 'registry.ollama.ai/library/gemma3:270m does not support tools'],
    [400, "This model doesn't support tool use."],
  ])('is true for an HTTP %i saying %s', (status, message) => {
    expect(isNativeToolsRefusal(upstream(status, message))).toBe(true);
  });

  it('is false for any other refusal, and for errors that did not come from the upstream', () => {
    expect(isNativeToolsRefusal(upstream(400, 'messages: field required'))).toBe(false);
    expect(isNativeToolsRefusal(gatewayError('invalid_request', { message: 'does not support tools' }))).toBe(false);
    expect(isNativeToolsRefusal(new Error('--enable-auto-tool-choice'))).toBe(false);
  });
});
