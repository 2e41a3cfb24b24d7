/**
 * llama-server refuses any schema its json-schema-to-grammar cannot convert in the same words, a tool's as
 * well as the response format's ("JSON schema conversion failed:\nUnrecognized schema: …"). Only a refusal of
 * the format's schema moves the format into the prompt (and is remembered for that schema); a tool's moves the
 * request to the prompted lane (test/real-servers/tool-schema-refused.test.ts), the format's schema left native
 * for other tools.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeInferenceServer } from '../helpers/fake-inference-server.js';
import { startFakeLlamaServer } from '../helpers/fake-llama-server.js';
import { postJson } from '../helpers/read-sse.js';
import { scriptedModel } from '../helpers/scripted-models.js';
import { startGateway, waitForServerDetection, type StartedGateway } from '../helpers/start-gateway.js';

/** A property with a description and nothing else: valid JSON Schema, which llama.cpp's converter does not know. */
const untyped = { description: 'Value for add/replace/test operations' };
const tool = (parameters: Record<string, unknown>) => ({ type: 'function', function: { name: 'patch', parameters } });
const goodTool = tool({ type: 'object', properties: { path: { type: 'string' } }, required: ['path'] });
const badTool = tool({ type: 'object', properties: { path: { type: 'string' }, value: untyped } });
const goodFormat = { type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'] };
const badFormat = { type: 'object', properties: { answer: { type: 'string' }, detail: untyped }, required: ['answer'] };

let llama: FakeInferenceServer;
let gateway: StartedGateway;

beforeAll(async () => {
  llama = await startFakeLlamaServer({ model: scriptedModel('hermes') });
  gateway = await startGateway(
    { providers: { llama: { type: 'openai-compatible', baseUrl: `${llama.url}/v1` } } },
    { detectServers: true },
  );
  await waitForServerDetection(gateway);
});

afterAll(async () => {
  await gateway?.close();
  await llama?.close();
});

const chatRequests = () => llama.requests.filter((request) => request.path === '/v1/chat/completions');

function ask(tools: unknown[], schema: Record<string, unknown>) {
  return postJson(`${gateway.baseUrl}/v1/chat/completions`, {
    model: 'llama/Qwen3-8B-Q4_K_M.gguf',
    messages: [{ role: 'user', content: 'Patch the file, then say what you did.' }],
    tools,
    response_format: { type: 'json_schema', json_schema: { name: 'report', schema } },
  });
}

describe("llama-server's refusal of a schema", () => {
  it("of a tool's: the request goes to the prompted lane, the format's schema not remembered for the next request", async () => {
    const before = chatRequests().length;
    const completionsBefore = llama.bodiesOf('/completion').length;
    const answered = await ask([badTool], goodFormat);
    expect(answered.status).toBe(200);
    expect(JSON.parse(answered.text).diagnostics.warnings).toContainEqual(
      expect.objectContaining({ message: expect.stringContaining('JSON schema conversion failed:\nUnrecognized schema: {"description"') }),
    );
    // One native attempt, then the prompted lane (/apply-template, /completion), the format in the prompt beside the tools.
    expect(chatRequests().length).toBe(before + 1);
    const prompted = llama.bodiesOf('/completion').slice(completionsBefore);
    expect(prompted).toHaveLength(1);
    expect(prompted[0]).not.toHaveProperty('json_schema');
    // Nothing was remembered against the format's schema: with a tool llama-server reads, it goes natively.
    const native = await ask([goodTool], goodFormat);
    expect(native.status).toBe(200);
    expect(chatRequests().at(-1)?.body).toHaveProperty('response_format');
  });

  it("of the format's, with tools beside it: the format goes into the prompt, named by the refusal's detail", async () => {
    const before = chatRequests().length;
    const answered = await ask([goodTool], badFormat);
    expect(answered.status).toBe(200);
    const sent = chatRequests().slice(before);
    expect(sent.map((request) => 'response_format' in (request.body as object))).toEqual([true, false]);
    expect(JSON.parse(answered.text).diagnostics.warnings).toContainEqual(
      expect.objectContaining({ message: expect.stringContaining('JSON schema conversion failed') }),
    );
  });
});
