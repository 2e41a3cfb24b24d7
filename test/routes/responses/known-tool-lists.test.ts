/**
 * /v1/responses with a large tool list resent every turn, as Codex does: once the body parser knows
 * the list, its translation is shared, and the upstream still gets the same bytes on every turn,
 * while each response keeps its own custom and namespaced calls, warnings and tool_choice.
 * A recording proxy in front of the fake upstream keeps the exact body text.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { isSharedToolList } from '../../../src/core/shared-tool-list.js';
import { ToolPromptCache } from '../../../src/pipeline/tool-prompt-cache.js';
import { startFakeOpenAiUpstream, type FakeOpenAiUpstream } from '../../helpers/fake-openai-upstream.js';
import { postJson } from '../../helpers/read-sse.js';
import { startRecordingProxy, type RecordingProxy } from '../../helpers/recording-proxy.js';
import { startGateway, testProvider, type StartedGateway } from '../../helpers/start-gateway.js';

let upstream: FakeOpenAiUpstream;
let proxy: RecordingProxy;
let gateway: StartedGateway;

beforeAll(async () => {
  upstream = await startFakeOpenAiUpstream();
  proxy = await startRecordingProxy(upstream.url);
  gateway = await startGateway({
    providers: {
      native: testProvider('openai-compatible', `${proxy.url}/v1`, { toolCalling: 'native' }),
      prompted: testProvider('openai-compatible', `${proxy.url}/v1`, { toolCalling: 'prompted' }),
    },
  });
});

afterAll(async () => {
  await gateway?.close();
  await proxy?.close();
  await upstream?.close();
});

/** About 12 KB of Codex-shaped tools (over the 4 KB a list needs to be remembered): functions, a freeform tool, a namespace, a hosted tool. */
function codexTools(variant: string): Record<string, unknown>[] {
  const functions = Array.from({ length: 40 }, (_, index) => ({
    type: 'function',
    name: `${variant}_command_${index}`,
    description: `Runs command ${index} (${variant}) in a PTY and returns its output. Prefer it over asking the user.`,
    strict: false,
    parameters: {
      type: 'object',
      properties: { cmd: { type: 'string', description: 'The command' }, workdir: { type: 'string' } },
      required: ['cmd'],
      additionalProperties: false,
    },
  }));
  return [
    ...functions,
    {
      type: 'custom',
      name: 'apply_patch',
      description: 'Edits files with a patch.',
      format: { type: 'grammar', syntax: 'lark', definition: 'start: begin_patch hunk+ end_patch' },
    },
    {
      type: 'namespace',
      name: 'multi_agent_v1',
      description: 'Sub-agents.',
      tools: [{ type: 'function', name: 'close_agent', parameters: { type: 'object', properties: { id: { type: 'string' } } } }],
    },
    { type: 'web_search', external_web_access: false },
  ];
}

type ResponseBody = { output: Record<string, unknown>[]; tools: unknown; diagnostics?: { warnings?: { code: string }[] } };

async function send(model: string, tools: Record<string, unknown>[], extra: Record<string, unknown> = {}): Promise<ResponseBody> {
  const response = await postJson(`${gateway.baseUrl}/v1/responses`, { model, input: 'Fix the bug.', tools, store: false, ...extra });
  expect(response.status, response.text).toBe(200);
  return JSON.parse(response.text) as ResponseBody;
}

function lastBody(): string {
  const last = proxy.bodies.at(-1);
  if (!last) throw new Error('no upstream request');
  return last.text;
}

const patch = '*** Begin Patch\n*** Add File: probe.txt\n+hello\n*** End Patch\n';

describe('/v1/responses with a known tool list', () => {
  it('sends byte-identical bodies every turn and renders custom and namespaced calls on each', async () => {
    const tools = codexTools('native');
    const bodies: string[] = [];
    for (let turn = 0; turn < 4; turn++) {
      upstream.enqueue({
        type: 'chat',
        toolCalls: [
          { id: `call_patch_${turn}`, name: 'apply_patch', arguments: { input: patch } },
          { id: `call_close_${turn}`, name: 'close_agent', arguments: { id: 'a1' } },
        ],
      });
      const response = await send('native/gpt-4o-mini', tools);
      expect(response.output).toEqual([
        expect.objectContaining({ type: 'custom_tool_call', call_id: `call_patch_${turn}`, name: 'apply_patch', input: patch }),
        expect.objectContaining({
          type: 'function_call',
          call_id: `call_close_${turn}`,
          name: 'close_agent',
          namespace: 'multi_agent_v1',
          arguments: '{"id":"a1"}',
        }),
      ]);
      expect(response.output[1]).not.toHaveProperty('input');
      expect(response.tools).toEqual(tools);
      expect(response.diagnostics?.warnings?.map((warning) => warning.code)).toEqual(['unsupported-tool']);
      bodies.push(lastBody());
    }
    for (const body of bodies) expect(body).toBe(bodies[0]);
    const sent = JSON.parse(bodies[0]!) as { tools: { function: { name: string; parameters: Record<string, unknown> } }[] };
    expect(sent.tools.map((tool) => tool.function.name)).toEqual([
      ...tools.slice(0, 40).map((tool) => tool.name),
      'apply_patch',
      'close_agent',
    ]);
    expect(sent.tools[40]!.function.parameters).toMatchObject({ properties: { input: { type: 'string' } }, required: ['input'] });
  });

  it('writes the same tool prompt every turn in the prompted lane, from one shared translation', async () => {
    const tools = codexTools('prompted');
    const bodies: string[] = [];
    const render = vi.spyOn(ToolPromptCache.prototype, 'render');
    for (let turn = 0; turn < 4; turn++) {
      upstream.enqueue({ type: 'chat', content: 'done' });
      const response = await send('prompted/qwen2.5-7b-instruct', tools);
      expect(response.output).toEqual([expect.objectContaining({ type: 'message', content: [expect.objectContaining({ text: 'done' })] })]);
      bodies.push(lastBody());
    }
    const rendered = render.mock.calls.map(([, neutralTools]) => neutralTools);
    render.mockRestore();
    for (const body of bodies) expect(body).toBe(bodies[0]);
    expect(bodies[0]).toContain('prompted_command_39');
    // Learnt on the second sighting; from then on the prompt cache is handed the same frozen array.
    expect(rendered).toHaveLength(4);
    for (const neutralTools of rendered.slice(2)) expect(neutralTools).toBe(rendered[1]);
    expect(isSharedToolList(rendered[1])).toBe(true);
  });

  it('keeps one request’s tool_choice and allowed tools out of the next request', async () => {
    const tools = codexTools('shared');
    const plainTurn = async () => {
      upstream.enqueue({ type: 'chat', content: 'done' });
      await send('native/gpt-4o-mini', tools);
      return lastBody();
    };
    const before = [await plainTurn(), await plainTurn(), await plainTurn()];
    upstream.enqueue({ type: 'chat', content: 'done' });
    await send('native/gpt-4o-mini', tools, {
      tool_choice: { type: 'allowed_tools', mode: 'required', tools: [{ type: 'function', name: 'shared_command_2' }] },
    });
    const allowed = JSON.parse(lastBody()) as { tools: { function: { name: string } }[]; tool_choice: unknown };
    expect(allowed.tools.map((tool) => tool.function.name)).toEqual(['shared_command_2']);
    expect(allowed.tool_choice).toBe('required');
    upstream.enqueue({ type: 'chat', content: 'done' });
    await send('native/gpt-4o-mini', tools, { tool_choice: { type: 'custom', name: 'apply_patch' }, parallel_tool_calls: false });
    expect(await plainTurn()).toBe(before[0]);
    expect(new Set(before).size).toBe(1);
  });

  it('refuses a known list with a duplicate name on every turn', async () => {
    const tools = codexTools('duplicate');
    tools.push({ ...tools[0]! });
    for (let turn = 0; turn < 3; turn++) {
      const response = await postJson(`${gateway.baseUrl}/v1/responses`, { model: 'native/gpt-4o-mini', input: 'Hi', tools, store: false });
      expect(response.status).toBe(400);
      expect(JSON.parse(response.text)).toMatchObject({ error: { code: 'duplicate_tool_name', param: 'tools[43].name' } });
    }
  });
});
