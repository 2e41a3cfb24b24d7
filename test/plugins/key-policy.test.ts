/**
 * Keys with policy through the gateway with the real `openai` client: model globs (403 model_not_allowed,
 * /v1/models filtered), tool allow/deny (removed from what the model sees, calls to them never returned, in
 * both lanes), names in the request log, and aliases.
 */
import OpenAI, { type APIError } from 'openai';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { normalizeConfig } from '../../src/config/normalize-config.js';
import { compileConfigFileValidator } from '../../src/config/validate-config-file.js';
import { startFakeOpenAiUpstream, type FakeOpenAiUpstream } from '../helpers/fake-openai-upstream.js';
import { testProvider } from '../helpers/start-gateway.js';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';

/** The config schema is compiled once for the file (as the loader does once per load). */
const validateConfigFile = compileConfigFileValidator();

const adminKey = 'sk-admin-0123456789';
const teamKey = 'sk-team-a-0123456789';
const tool = (name: string): OpenAI.ChatCompletionTool => ({
  type: 'function',
  function: { name, parameters: { type: 'object', properties: {} } },
});

let upstream: FakeOpenAiUpstream;
let app: FastifyInstance;
let baseUrl: string;
const logLines: Record<string, unknown>[] = [];

beforeAll(async () => {
  upstream = await startFakeOpenAiUpstream();
  upstream.models = ['qwen3-8b', 'gpt-4o-mini'];
  const file = {
    server: {
      apiKeys: [adminKey, { key: teamKey, name: 'team-a', models: ['local/qwen*', 'native/gpt-4o*'], tools: { deny: ['delete_*'] } }],
    },
    providers: {
      local: testProvider('openai-compatible', `${upstream.url}/v1`, { toolCalling: 'prompted' }),
      native: testProvider('openai-compatible', `${upstream.url}/v1`, { toolCalling: 'native' }),
    },
    aliases: { 'claude-sonnet-4-5': 'local/qwen3-8b', sneaky: 'native/o3' },
  };
  const config = normalizeConfig(validateConfigFile(file), { host: '127.0.0.1', port: 0 });
  const logger = pino({ level: 'info' }, { write: (line: string) => void logLines.push(JSON.parse(line) as Record<string, unknown>) });
  app = await buildApp(config, { logger });
  await app.listen({ host: '127.0.0.1', port: 0 });
  baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await app?.close();
  await upstream?.close();
});

const client = (key: string) => new OpenAI({ baseURL: `${baseUrl}/v1`, apiKey: key, maxRetries: 0 });

describe('model policy', () => {
  it('refuses a model outside the key’s globs with 403 model_not_allowed naming it', async () => {
    const error = await client(teamKey)
      .chat.completions.create({ model: 'native/o3', messages: [{ role: 'user', content: 'hi' }] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.PermissionDeniedError);
    expect((error as APIError).code).toBe('model_not_allowed');
    expect((error as APIError).message).toContain("'native/o3'");
  });

  it('refuses embeddings from a model outside the key’s globs, before the upstream is asked', async () => {
    const embeddingRequests = () => upstream.requests.filter((request) => request.path === '/v1/embeddings').length;
    const before = embeddingRequests();
    const error = await client(teamKey)
      .embeddings.create({ model: 'native/text-embedding-3-large', input: 'hi' })
      .catch((caught: unknown) => caught);
    expect((error as APIError).status).toBe(403);
    expect((error as APIError).code).toBe('model_not_allowed');
    expect(embeddingRequests()).toBe(before);
    const allowed = await client(teamKey).embeddings.create({ model: 'local/qwen3-embedding', input: 'hi' });
    expect(allowed.object).toBe('list');
    expect(embeddingRequests()).toBe(before + 1);
  });

  it('checks an alias by its target, so an alias cannot widen a key', async () => {
    const error = await client(teamKey)
      .chat.completions.create({ model: 'sneaky', messages: [{ role: 'user', content: 'hi' }] })
      .catch((caught: unknown) => caught);
    expect((error as APIError).status).toBe(403);
  });

  it('lists only the models the key may use', async () => {
    const team = (await client(teamKey).models.list()).data.map((model) => model.id);
    expect(team.sort()).toEqual(['local/qwen3-8b', 'native/gpt-4o-mini']);
    const admin = (await client(adminKey).models.list()).data.map((model) => model.id);
    expect(admin).toEqual(expect.arrayContaining(['local/gpt-4o-mini', 'native/qwen3-8b']));
  });
});

describe('tool policy', () => {
  it('removes a denied tool from what a prompted model sees, with a warning, and never returns a call to it', async () => {
    upstream.enqueue({ type: 'chat', content: '<tool_call>{"name": "delete_repo", "arguments": {}}</tool_call>' });
    const completion = await client(teamKey).chat.completions.create({
      model: 'local/qwen3-8b',
      messages: [{ role: 'user', content: 'clean up' }],
      tools: [tool('read_file'), tool('delete_repo')],
    });
    const system = (upstream.lastChatBody().messages as { content: string }[])[0]?.content ?? '';
    expect(system).toContain('read_file');
    expect(system).not.toContain('delete_repo');
    expect(completion.choices[0]?.message.tool_calls ?? []).toEqual([]);
    const diagnostics = (
      completion as unknown as { diagnostics: { tool_call_error: { code: string }; warnings: { code: string; message: string }[] } }
    ).diagnostics;
    expect(diagnostics.tool_call_error.code).toBe('unavailable_tool');
    expect(diagnostics.warnings).toEqual(
      expect.arrayContaining([expect.objectContaining({ code: 'tool-not-allowed', message: expect.stringContaining('delete_repo') })]),
    );
  });

  it('drops a native call to a denied tool and renumbers the rest', async () => {
    upstream.enqueue({
      type: 'chat',
      toolCalls: [
        { name: 'delete_repo', arguments: {} },
        { name: 'read_file', arguments: { path: 'a' } },
      ],
    });
    const stream = client(teamKey).chat.completions.stream({
      model: 'native/gpt-4o-mini',
      messages: [{ role: 'user', content: 'x' }],
      tools: [tool('read_file'), tool('delete_repo')],
    });
    const completion = await stream.finalChatCompletion();
    const sentTools = (upstream.lastChatBody().tools as { function: { name: string } }[]).map((sent) => sent.function.name);
    expect(sentTools).toEqual(['read_file']);
    const calls = completion.choices[0]?.message.tool_calls as OpenAI.ChatCompletionMessageFunctionToolCall[];
    expect(calls.map((call) => call.function.name)).toEqual(['read_file']);
  });

  it('refuses a tool_choice naming a denied tool', async () => {
    const error = await client(teamKey)
      .chat.completions.create({
        model: 'local/qwen3-8b',
        messages: [{ role: 'user', content: 'x' }],
        tools: [tool('delete_repo')],
        tool_choice: { type: 'function', function: { name: 'delete_repo' } },
      })
      .catch((caught: unknown) => caught);
    expect((error as APIError).status).toBe(403);
    expect((error as APIError).code).toBe('tool_not_allowed');
  });

  it('leaves a key without a tool policy alone', async () => {
    upstream.enqueue({ type: 'chat', content: '<tool_call>{"name": "delete_repo", "arguments": {}}</tool_call>' });
    const completion = await client(adminKey).chat.completions.create({
      model: 'local/qwen3-8b',
      messages: [{ role: 'user', content: 'x' }],
      tools: [tool('delete_repo')],
    });
    expect((completion.choices[0]?.message.tool_calls?.[0] as OpenAI.ChatCompletionMessageFunctionToolCall).function.name).toBe(
      'delete_repo',
    );
  });
});

describe('names and aliases', () => {
  it('logs the key’s name, never the key', async () => {
    upstream.enqueue({ type: 'chat', content: 'hello' });
    await client(teamKey).chat.completions.create({ model: 'local/qwen3-8b', messages: [{ role: 'user', content: 'x' }] });
    const line = logLines.filter((entry) => entry.msg === 'request').at(-1);
    expect(line).toMatchObject({ key: 'team-a', model: 'qwen3-8b' });
    expect(JSON.stringify(logLines)).not.toContain(teamKey);
  });

  it('routes an alias to its target and echoes the name the client asked for', async () => {
    upstream.enqueue({ type: 'chat', content: 'from qwen' });
    const completion = await client(adminKey).chat.completions.create({
      model: 'claude-sonnet-4-5',
      messages: [{ role: 'user', content: 'x' }],
    });
    expect(upstream.lastChatBody().model).toBe('qwen3-8b');
    expect(completion.model).toBe('claude-sonnet-4-5');
    expect(completion.choices[0]?.message.content).toBe('from qwen');
  });

  it('has no alias for a prototype member', async () => {
    const error = await client(adminKey)
      .chat.completions.create({ model: 'constructor', messages: [{ role: 'user', content: 'x' }] })
      .catch((caught: unknown) => caught);
    expect((error as APIError).status).toBe(404);
  });
});
