/** Which refusals are of the tools' schemas, and how they are remembered (src/pipeline/tool-schemas-refused.ts). */
import { describe, expect, it } from 'vitest';
import type { ChatRequest } from '../../src/core/chat-request.js';
import { refusalMemories } from '../../src/core/refusal-memory.js';
import type { ResolvedModel } from '../../src/core/resolved-model.js';
import type { ToolChoice } from '../../src/core/tool-definition.js';
import { errorFromUpstreamStatus } from '../../src/http/upstream-error.js';
import { isToolSchemaRefusal, ToolSchemasRefused } from '../../src/pipeline/tool-schemas-refused.js';

const unanchored = { type: 'object', properties: { city: { type: 'string', pattern: '\\S' } } };
const anchored = { type: 'object', properties: { city: { type: 'string', pattern: '^\\S+$' } } };
const model = { provider: 'llama', model: 'Qwen3-8B-Q4_K_M.gguf' } as ResolvedModel;

function request(options: { tools?: Record<string, unknown>[]; choice?: ToolChoice; format?: Record<string, unknown> } = {}): ChatRequest {
  const sent: Partial<ChatRequest> = { model, messages: [] };
  if (options.tools) sent.tools = options.tools.map((parameters, index) => ({ name: `tool_${index}`, parameters }));
  if (options.choice) sent.toolChoice = options.choice;
  if (options.format) sent.responseFormat = { type: 'json_schema', name: 'report', schema: options.format };
  return sent as ChatRequest;
}

/** llama-server's body: `{"error": {"code", "message", "type"}}` (tools/server/server-common.cpp, format_error_response). */
const refusal = (status: number, message: string) =>
  errorFromUpstreamStatus({
    status,
    body: { error: { code: status, message, type: status === 400 ? 'invalid_request_error' : 'server_error' } },
    provider: 'llama',
  });

const reason = "JSON schema conversion failed:\nPattern must start with '^' and end with '$'";
/** Builds with the automatic parser generator (common/chat.cpp, common_chat_templates_apply_jinja). */
const wrapped = `Unable to generate parser for this template. Automatic parser generation failed: ${reason}`;

describe('isToolSchemaRefusal', () => {
  it("takes the converter's 400 for a request that sent tools to be parsed, in either build's words", () => {
    expect(isToolSchemaRefusal(refusal(400, wrapped), request({ tools: [unanchored] }))).toBe(true);
    // Builds before the parser generator: the converter's words alone (ggml-org/llama.cpp#19716).
    expect(isToolSchemaRefusal(refusal(400, reason), request({ tools: [unanchored], choice: { type: 'required' } }))).toBe(true);
  });

  it('leaves requests without tools to parse, other statuses and other words', () => {
    expect(isToolSchemaRefusal(refusal(400, wrapped), request())).toBe(false);
    // tool_choice "none" builds no tool-call grammar (chat-auto-parser-generator.cpp, include_grammar).
    expect(isToolSchemaRefusal(refusal(400, wrapped), request({ tools: [unanchored], choice: { type: 'none' } }))).toBe(false);
    expect(isToolSchemaRefusal(refusal(500, wrapped), request({ tools: [unanchored] }))).toBe(false);
    expect(
      isToolSchemaRefusal(
        refusal(400, 'Cannot have 2 or more assistant messages at the end of the list.'),
        request({ tools: [unanchored] }),
      ),
    ).toBe(false);
    expect(isToolSchemaRefusal(new Error(reason), request({ tools: [unanchored] }))).toBe(false);
  });

  it("leaves what format-schema-refused.ts lays on the response format's schema", () => {
    const untyped = { description: 'free text' };
    const format = { type: 'object', properties: { detail: untyped } };
    const unrecognized = `JSON schema conversion failed:\nUnrecognized schema: ${JSON.stringify(untyped)}`;
    expect(isToolSchemaRefusal(refusal(400, unrecognized), request({ tools: [anchored], format }))).toBe(false);
    // A reason that names no part could be either's: the prompted lane writes both into the prompt.
    expect(isToolSchemaRefusal(refusal(400, reason), request({ tools: [unanchored], format }))).toBe(true);
  });
});

describe('ToolSchemasRefused', () => {
  it('remembers a model and its tool set, by their schemas, until the memory forgets it', () => {
    let now = 0;
    const refused = new ToolSchemasRefused(refusalMemories({ forgetAfterMs: 1_000, now: () => now }));
    const sent = request({ tools: [unanchored, anchored] });
    const tools = sent.tools ?? [];
    expect(refused.has(model, sent)).toBe(false);
    expect(refused.remember(model, sent)).toBe(true);
    expect(refused.remember(model, sent)).toBe(false);
    // The same schemas under other names and descriptions: the converter reads the schemas alone.
    expect(refused.has(model, { tools: tools.map((tool) => ({ ...tool, name: `renamed_${tool.name}`, description: 'another' })) })).toBe(
      true,
    );
    expect(refused.has(model, { tools: tools.slice(1) })).toBe(false);
    expect(refused.has({ ...model, model: 'other.gguf' }, sent)).toBe(false);
    now = 999;
    expect(refused.has(model, sent)).toBe(true);
    now = 1_000;
    expect(refused.has(model, sent)).toBe(false);
  });

  it("keys a refusal that came with a response format's schema by that schema too", () => {
    const refused = new ToolSchemasRefused(refusalMemories({ forgetAfterMs: 1_000, now: () => 0 }));
    const withFormat = request({ tools: [unanchored], format: { type: 'object', properties: { answer: { type: 'string' } } } });
    refused.remember(model, withFormat);
    expect(refused.has(model, withFormat)).toBe(true);
    // The same tools alone were perhaps never the converter's trouble: they get their native attempt.
    expect(refused.has(model, request({ tools: [unanchored] }))).toBe(false);
  });
});
