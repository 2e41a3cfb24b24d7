/** Which schema llama-server's json-schema-to-grammar refused: the response format's, or a tool's (src/pipeline/format-schema-refused.ts). */
import { describe, expect, it } from 'vitest';
import type { ChatRequest } from '../../src/core/chat-request.js';
import { errorFromUpstreamStatus } from '../../src/http/upstream-error.js';
import { isFormatSchemaTooComplex } from '../../src/pipeline/format-schema-refused.js';

const untyped = { description: 'Value for add/replace/test operations' };
const formatSchema = { type: 'object', properties: { answer: { type: 'string' }, detail: untyped }, $defs: { a: { type: 'string' } } };
const toolSchema = { type: 'object', properties: { path: { type: 'string' }, value: { enum: [1] } } };

function request(tools: Record<string, unknown>[]): ChatRequest {
  return {
    messages: [],
    responseFormat: { type: 'json_schema', name: 'report', schema: formatSchema },
    tools: tools.map((parameters, index) => ({ name: `tool_${index}`, parameters })),
  } as unknown as ChatRequest;
}

/** llama-server's body: `{"error": {"code", "message", "type"}}` (tools/server/server-common.cpp, format_error_response). */
const refusal = (status: number, message: string) =>
  errorFromUpstreamStatus({
    status,
    body: { error: { code: status, message, type: status === 400 ? 'invalid_request_error' : 'server_error' } },
    provider: 'llama',
  });

describe('isFormatSchemaTooComplex', () => {
  const unrecognizedInFormat = `JSON schema conversion failed:\nUnrecognized schema: ${JSON.stringify(untyped)}`;

  it('blames the format when no tool with a schema went with it, or when the refusal names the json_schema field', () => {
    expect(isFormatSchemaTooComplex(refusal(400, unrecognizedInFormat), request([]))).toBe(true);
    expect(isFormatSchemaTooComplex(refusal(400, 'JSON schema conversion failed:\nUnbalanced parentheses'), request([{}]))).toBe(true);
    // server-task.cpp, params_from_json_cmpl: a std::runtime_error, which the server answers with a 500.
    const field = `"json_schema": JSON schema conversion failed:\nUnbalanced parentheses`;
    expect(isFormatSchemaTooComplex(refusal(500, field), request([toolSchema]))).toBe(true);
    expect(isFormatSchemaTooComplex(refusal(500, 'JSON schema conversion failed:\nUnbalanced parentheses'), request([]))).toBe(false);
  });

  it('with tools, reads the part each reason names: in the format and in no tool, or nothing is blamed', () => {
    expect(isFormatSchemaTooComplex(refusal(400, unrecognizedInFormat), request([toolSchema]))).toBe(true);
    // The same part in a tool too: it may be the tool's.
    expect(isFormatSchemaTooComplex(refusal(400, unrecognizedInFormat), request([{ type: 'object', properties: { v: untyped } }]))).toBe(
      false,
    );
    // The part only a tool has.
    const inTool = 'JSON schema conversion failed:\nUnrecognized schema: {"enum":[1]}';
    expect(isFormatSchemaTooComplex(refusal(400, inTool), request([toolSchema]))).toBe(false);
    // A reason naming no part.
    expect(isFormatSchemaTooComplex(refusal(400, 'JSON schema conversion failed:\nUnbalanced parentheses'), request([toolSchema]))).toBe(
      false,
    );
    // Keys in nlohmann's order, not the client's.
    const sorted = 'JSON schema conversion failed:\nUnrecognized schema: {"a":1,"b":2}';
    const formatted = {
      ...request([toolSchema]),
      responseFormat: { type: 'json_schema', name: 'r', schema: { type: 'object', properties: { x: { b: 2, a: 1 } } } },
    };
    expect(isFormatSchemaTooComplex(refusal(400, sorted), formatted as ChatRequest)).toBe(true);
  });

  it("blames the format for any refusal of the automatic parser generator beside a format's schema: it converts that schema alone", () => {
    // chat-auto-parser-generator.cpp, autoparser::build_parser: with a response format, the tools' parser is not built.
    const generator = (reason: string) =>
      `Unable to generate parser for this template. Automatic parser generation failed: JSON schema conversion failed:\n${reason}`;
    expect(isFormatSchemaTooComplex(refusal(400, generator('Unbalanced parentheses')), request([toolSchema]))).toBe(true);
    expect(isFormatSchemaTooComplex(refusal(400, generator('Unrecognized schema: {"enum":[1]}')), request([toolSchema]))).toBe(true);
    // An empty schema is no format to llama.cpp (`has_response_format` needs a non-empty object): the tools' was converted.
    const empty = { ...request([toolSchema]), responseFormat: { type: 'json_schema', name: 'r', schema: {} } };
    expect(isFormatSchemaTooComplex(refusal(400, generator('Unbalanced parentheses')), empty as ChatRequest)).toBe(false);
  });

  it("reads a ref the converter could not resolve, and leaves Claude's and Bedrock's words as they were", () => {
    const ref = (name: string) => ({ type: 'object', properties: { x: { $ref: `#/$defs/${name}` } } });
    const message = 'JSON schema conversion failed:\nError resolving ref #/$defs/missing: missing not in {"a":{"type":"string"}}';
    const withRef = { ...request([toolSchema]), responseFormat: { type: 'json_schema', name: 'r', schema: ref('missing') } };
    expect(isFormatSchemaTooComplex(refusal(400, message), withRef as ChatRequest)).toBe(true);
    expect(
      isFormatSchemaTooComplex(refusal(400, message), { ...withRef, tools: [{ name: 't', parameters: ref('missing') }] } as ChatRequest),
    ).toBe(false);
    expect(isFormatSchemaTooComplex(refusal(400, 'Schema is too complex for compilation.'), request([toolSchema]))).toBe(true);
  });
});
