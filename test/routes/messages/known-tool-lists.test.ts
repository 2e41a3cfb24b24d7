/**
 * /v1/messages with a large tool list resent every turn, as Claude Code does: once the body parser
 * knows the list, its translation is shared, and the upstream still gets the same bytes on every
 * turn, the right tools, and the client the right answer and warnings. Recording proxies in front of
 * the fake upstreams keep the exact body text.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { isSharedToolList } from '../../../src/core/shared-tool-list.js';
import { ToolPromptCache } from '../../../src/pipeline/tool-prompt-cache.js';
import { startFakeAnthropicUpstream, type FakeAnthropicUpstream } from '../../helpers/fake-anthropic-upstream.js';
import { startFakeOpenAiUpstream, type FakeOpenAiUpstream } from '../../helpers/fake-openai-upstream.js';
import { postJson } from '../../helpers/read-sse.js';
import { startRecordingProxy, type RecordingProxy } from '../../helpers/recording-proxy.js';
import { startGateway, testProvider, type StartedGateway } from '../../helpers/start-gateway.js';

let openai: FakeOpenAiUpstream;
let anthropic: FakeAnthropicUpstream;
let openaiProxy: RecordingProxy;
let anthropicProxy: RecordingProxy;
let gateway: StartedGateway;

beforeAll(async () => {
  [openai, anthropic] = await Promise.all([startFakeOpenAiUpstream(), startFakeAnthropicUpstream()]);
  [openaiProxy, anthropicProxy] = await Promise.all([startRecordingProxy(openai.url), startRecordingProxy(anthropic.url)]);
  gateway = await startGateway({
    providers: {
      native: testProvider('openai-compatible', `${openaiProxy.url}/v1`, { toolCalling: 'native' }),
      prompted: testProvider('openai-compatible', `${openaiProxy.url}/v1`, { toolCalling: 'prompted' }),
      claude: testProvider('anthropic', anthropicProxy.url, { apiKey: 'upstream-key' }),
    },
  });
});

afterAll(async () => {
  await gateway?.close();
  await Promise.all([openaiProxy?.close(), anthropicProxy?.close()]);
  await Promise.all([openai?.close(), anthropic?.close()]);
});

const schemaMarker = 'https://json-schema.org/draft/2020-12/schema';

/** About 12 KB of Claude Code-shaped tools (over the 4 KB a list needs to be remembered), plus one server tool. */
function claudeCodeTools(variant: string): Record<string, unknown>[] {
  const custom = Array.from({ length: 40 }, (_, index) => ({
    name: `${variant}_Tool${index}`,
    description: `Tool ${index} (${variant}): reads or edits something in the workspace. Prefer it over shell commands when it fits.`,
    input_schema: {
      $schema: schemaMarker,
      type: 'object',
      properties: { file_path: { type: 'string', description: 'The absolute path' }, limit: { type: 'number' } },
      required: ['file_path'],
      additionalProperties: false,
    },
  }));
  return [...custom, { type: 'web_search_20250305', name: 'web_search', max_uses: 5 }];
}

const question = [{ role: 'user', content: 'Read src/app.ts.' }];
const anthropicHeaders = { 'anthropic-version': '2023-06-01' };

type MessageBody = {
  content: Record<string, unknown>[];
  stop_reason: string;
  diagnostics?: { warnings?: { code: string; message: string }[] };
};

async function send(model: string, tools: Record<string, unknown>[], extra: Record<string, unknown> = {}): Promise<MessageBody> {
  const response = await postJson(
    `${gateway.baseUrl}/v1/messages`,
    { model, max_tokens: 256, messages: question, tools, ...extra },
    anthropicHeaders,
  );
  expect(response.status, response.text).toBe(200);
  return (extra.stream === true ? {} : JSON.parse(response.text)) as MessageBody;
}

function lastBody(proxy: RecordingProxy): string {
  const last = proxy.bodies.at(-1);
  if (!last) throw new Error('no upstream request');
  return last.text;
}

function warningCodes(message: MessageBody): string[] {
  return (message.diagnostics?.warnings ?? []).map((warning) => warning.code);
}

describe('/v1/messages with a known tool list', () => {
  it('sends byte-identical OpenAI bodies every turn and answers each with the right call and warnings', async () => {
    const tools = claudeCodeTools('native');
    const bodies: string[] = [];
    for (let turn = 0; turn < 4; turn++) {
      openai.enqueue({
        type: 'chat',
        toolCalls: [{ id: `call_${turn}`, name: 'native_Tool3', arguments: { file_path: '/w/src/app.ts' } }],
      });
      const message = await send('native/gpt-4o-mini', tools);
      expect(message.stop_reason).toBe('tool_use');
      expect(message.content).toEqual([
        { type: 'tool_use', id: `call_${turn}`, name: 'native_Tool3', input: { file_path: '/w/src/app.ts' } },
      ]);
      expect(warningCodes(message)).toEqual(['unsupported-tool']);
      bodies.push(lastBody(openaiProxy));
    }
    for (const body of bodies) expect(body).toBe(bodies[0]);
    const sent = JSON.parse(bodies[0]!) as { tools: { function: { name: string; parameters: Record<string, unknown> } }[] };
    expect(sent.tools.map((tool) => tool.function.name)).toEqual(tools.slice(0, 40).map((tool) => tool.name));
    const { $schema: _marker, ...parameters } = tools[0]!.input_schema as Record<string, unknown>;
    expect(sent.tools[0]!.function.parameters).toEqual(parameters);
  });

  it('writes the same tool prompt every turn in the prompted lane, from one shared translation', async () => {
    const tools = claudeCodeTools('prompted');
    const bodies: string[] = [];
    const render = vi.spyOn(ToolPromptCache.prototype, 'render');
    for (let turn = 0; turn < 4; turn++) {
      openai.enqueue({ type: 'chat', content: 'done' });
      const message = await send('prompted/qwen2.5-7b-instruct', tools);
      expect(message.content).toEqual([{ type: 'text', text: 'done' }]);
      expect(warningCodes(message)).toContain('unsupported-tool');
      bodies.push(lastBody(openaiProxy));
    }
    const rendered = render.mock.calls.map(([, neutralTools]) => neutralTools);
    render.mockRestore();
    // The body parser learns the list on its second sighting; from then on the prompt cache is handed
    // the same frozen array, so it finds the prompt by identity.
    expect(rendered).toHaveLength(4);
    expect(isSharedToolList(rendered[0])).toBe(false);
    for (const neutralTools of rendered.slice(2)) expect(neutralTools).toBe(rendered[1]);
    expect(isSharedToolList(rendered[1])).toBe(true);
    for (const body of bodies) expect(body).toBe(bodies[0]);
    expect(bodies[0]).toContain('prompted_Tool39');
    expect(bodies[0]).not.toContain(schemaMarker);
  });

  it('keeps what one request varies around the shared list out of the next request', async () => {
    const tools = claudeCodeTools('shared');
    const plainTurn = async () => {
      openai.enqueue({ type: 'chat', content: 'done' });
      await send('native/gpt-4o-mini', tools);
      return lastBody(openaiProxy);
    };
    const before = [await plainTurn(), await plainTurn(), await plainTurn()];
    openai.enqueue({ type: 'chat', content: 'done' });
    await send('native/gpt-4o-mini', tools, { tool_choice: { type: 'tool', name: 'shared_Tool5', disable_parallel_tool_use: true } });
    expect(JSON.parse(lastBody(openaiProxy))).toMatchObject({
      tool_choice: { type: 'function', function: { name: 'shared_Tool5' } },
      parallel_tool_calls: false,
    });
    openai.enqueue({ type: 'chat', content: 'done' });
    await send('native/gpt-4o-mini', tools, { stream: true });
    openai.enqueue({ type: 'chat', content: 'done' });
    await send('prompted/qwen2.5-7b-instruct', tools, { tool_choice: { type: 'tool', name: 'shared_Tool7' } });
    expect(await plainTurn()).toBe(before[0]);
    expect(new Set(before).size).toBe(1);
  });

  it('sends byte-identical Anthropic bodies every turn, without the server tool or the schema marker', async () => {
    const tools = claudeCodeTools('claude');
    const bodies: string[] = [];
    for (let turn = 0; turn < 3; turn++) {
      anthropic.enqueue({ type: 'message', content: [{ type: 'text', text: 'ok' }] });
      const message = await send('claude/claude-sonnet-4-5', tools);
      expect(message.content).toEqual([{ type: 'text', text: 'ok' }]);
      bodies.push(lastBody(anthropicProxy));
    }
    for (const body of bodies) expect(body).toBe(bodies[0]);
    const sent = JSON.parse(bodies[0]!) as { tools: { name: string }[] };
    expect(sent.tools.map((tool) => tool.name)).toEqual(tools.slice(0, 40).map((tool) => tool.name));
    expect(bodies[0]).not.toContain(schemaMarker);
  });

  it('counts the same tokens for the list every time', async () => {
    const tools = claudeCodeTools('count');
    const counts: unknown[] = [];
    for (let turn = 0; turn < 3; turn++) {
      const response = await postJson(
        `${gateway.baseUrl}/v1/messages/count_tokens`,
        { model: 'native/gpt-4o-mini', messages: question, tools },
        anthropicHeaders,
      );
      expect(response.status).toBe(200);
      counts.push(JSON.parse(response.text).input_tokens);
    }
    expect(counts[0]).toBeGreaterThan(1000);
    expect(new Set(counts).size).toBe(1);
  });
});
