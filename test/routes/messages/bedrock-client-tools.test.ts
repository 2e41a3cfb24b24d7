/**
 * Anthropic's own client tools (bash, text editor, computer use) from a Messages client to Claude on Bedrock: in
 * Claude's own form through `additionalModelRequestFields.tools` with the client's beta in `anthropic_beta`,
 * custom tools in `toolConfig`, as AWS's computer use guide sends them
 * (https://docs.aws.amazon.com/bedrock/latest/userguide/computer-use.html); Claude's call comes back as a
 * tool_use. Another Bedrock model gets them as custom tools. The fake Bedrock checks them as Claude does.
 */
import { describe, expect, it } from 'vitest';
import { claudeAndBedrockForFile, postForOk } from '../../helpers/claude-and-bedrock.js';
import { postJson } from '../../helpers/read-sse.js';

const fakes = claudeAndBedrockForFile();

const claude = 'anthropic.claude-sonnet-4-5-20250929-v1:0';
const llama = 'meta.llama3-1-70b-instruct-v1:0';
const computer = { type: 'computer_20250124', name: 'computer', display_width_px: 1280, display_height_px: 800 };
const bash = { type: 'bash_20250124', name: 'bash' };
const weather = { name: 'get_weather', input_schema: { type: 'object', properties: { city: { type: 'string' } } } };
const headers = { 'anthropic-version': '2023-06-01', 'anthropic-beta': 'computer-use-2025-01-24' };

type ConverseBody = {
  toolConfig?: { tools: { toolSpec?: { name: string } }[]; toolChoice?: unknown };
  additionalModelRequestFields?: { tools?: unknown; anthropic_beta?: unknown; tool_choice?: unknown };
};

function lastConverseBody(): ConverseBody {
  return fakes.bedrock.requests.at(-1)!.body as ConverseBody;
}

function request(model: string, extra: Record<string, unknown> = {}) {
  return {
    model: `bedrock/${model}`,
    max_tokens: 200,
    tools: [computer, bash, weather],
    messages: [{ role: 'user', content: 'Open the browser.' }],
    ...extra,
  };
}

describe("Anthropic's client tools to Claude on Bedrock", () => {
  it("go in Claude's own form through additionalModelRequestFields, custom tools in toolConfig, and the call comes back", async () => {
    fakes.bedrock.enqueue({ type: 'message', toolUses: [{ name: 'computer', input: { action: 'screenshot' } }] });
    const reply = await postForOk(`${fakes.gateway.baseUrl}/v1/messages`, request(claude), headers);
    const sent = lastConverseBody();
    expect(sent.additionalModelRequestFields).toEqual({ tools: [computer, bash], anthropic_beta: ['computer-use-2025-01-24'] });
    expect(sent.toolConfig?.tools.map((tool) => tool.toolSpec?.name)).toEqual(['get_weather']);
    expect(reply).toMatchObject({
      content: [{ type: 'tool_use', id: 'tooluse_0', name: 'computer', input: { action: 'screenshot' } }],
      stop_reason: 'tool_use',
    });
  });

  it('with only client tools and a tool exchange behind, toolConfig holds the placeholder Converse requires, no duplicate name', async () => {
    fakes.bedrock.enqueue({ type: 'message', text: 'Done.' });
    await postForOk(
      `${fakes.gateway.baseUrl}/v1/messages`,
      request(claude, {
        tools: [computer],
        messages: [
          { role: 'user', content: 'Take a screenshot.' },
          { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'computer', input: { action: 'screenshot' } }] },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'taken' }] },
        ],
      }),
      headers,
    );
    const sent = lastConverseBody();
    expect(sent.additionalModelRequestFields?.tools).toEqual([computer]);
    expect(sent.toolConfig?.tools.map((tool) => tool.toolSpec?.name)).toEqual(['interlingua_no_tools_offered']);
  });

  it("a tool_choice beside client tools goes in Claude's own form through additionalModelRequestFields, none in toolConfig", async () => {
    const cases = [
      { choice: { type: 'tool', name: 'computer' }, sent: { type: 'tool', name: 'computer' } },
      { choice: { type: 'tool', name: 'get_weather' }, sent: { type: 'tool', name: 'get_weather' } },
      { choice: { type: 'any' }, sent: { type: 'any' } },
      { choice: { type: 'auto', disable_parallel_tool_use: true }, sent: { type: 'auto', disable_parallel_tool_use: true } },
    ];
    for (const { choice, sent } of cases) {
      fakes.bedrock.enqueue({ type: 'message', toolUses: [{ name: 'computer', input: { action: 'screenshot' } }] });
      const response = await postJson(`${fakes.gateway.baseUrl}/v1/messages`, request(claude, { tool_choice: choice }), headers);
      expect(response.status, response.text).toBe(200);
      const body = lastConverseBody();
      expect(body.additionalModelRequestFields?.tool_choice, JSON.stringify(choice)).toEqual(sent);
      expect(body.toolConfig?.toolChoice).toBeUndefined();
      expect(response.text).not.toContain('was not sent');
      expect(response.text).not.toContain('cannot turn parallel tool calls off');
    }
  });

  it('with client tools only, the tool_choice goes in the additional fields, and there is no toolConfig', async () => {
    fakes.bedrock.enqueue({ type: 'message', toolUses: [{ name: 'bash', input: { command: 'ls' } }] });
    await postForOk(
      `${fakes.gateway.baseUrl}/v1/messages`,
      request(claude, { tools: [bash], tool_choice: { type: 'tool', name: 'bash' } }),
      headers,
    );
    expect(lastConverseBody().additionalModelRequestFields).toEqual({
      tools: [bash],
      tool_choice: { type: 'tool', name: 'bash' },
      anthropic_beta: ['computer-use-2025-01-24'],
    });
    expect(lastConverseBody().toolConfig).toBeUndefined();
  });

  it('thinking is left out when that choice forces a tool (Claude refuses the two together)', async () => {
    fakes.bedrock.enqueue({ type: 'message', toolUses: [{ name: 'computer', input: { action: 'screenshot' } }] });
    const response = await postJson(
      `${fakes.gateway.baseUrl}/v1/messages`,
      request(claude, { tool_choice: { type: 'any' }, thinking: { type: 'enabled', budget_tokens: 1024 }, max_tokens: 4000 }),
      headers,
    );
    expect(response.status, response.text).toBe(200);
    expect(lastConverseBody().additionalModelRequestFields).toMatchObject({ tool_choice: { type: 'any' } });
    expect(lastConverseBody().additionalModelRequestFields).not.toHaveProperty('thinking');
  });

  it('computer_20251124 goes with its beta, computer-use-2025-11-24, which Bedrock takes', async () => {
    const newer = { type: 'computer_20251124', name: 'computer', display_width_px: 1280, display_height_px: 800, enable_zoom: true };
    fakes.bedrock.enqueue({ type: 'message', toolUses: [{ name: 'computer', input: { action: 'zoom', region: [0, 0, 10, 10] } }] });
    await postForOk(`${fakes.gateway.baseUrl}/v1/messages`, request('anthropic.claude-opus-4-5-20251101-v1:0', { tools: [newer] }), {
      'anthropic-version': '2023-06-01',
      'anthropic-beta': 'computer-use-2025-11-24',
    });
    expect(lastConverseBody().additionalModelRequestFields).toEqual({ tools: [newer], anthropic_beta: ['computer-use-2025-11-24'] });
  });

  it("Claude's own refusal comes back: the computer tool without its beta", async () => {
    const response = await postJson(`${fakes.gateway.baseUrl}/v1/messages`, request(claude), { 'anthropic-version': '2023-06-01' });
    expect(response.status).toBe(400);
    expect(response.text).toContain("Input tag 'computer_20250124'");
  });

  it('another Bedrock model gets them as custom tools in toolConfig, and no additional fields', async () => {
    fakes.bedrock.enqueue({ type: 'message', text: 'ok' });
    await postForOk(`${fakes.gateway.baseUrl}/v1/messages`, request(llama), { 'anthropic-version': '2023-06-01' });
    const sent = lastConverseBody();
    expect(sent.additionalModelRequestFields).toBeUndefined();
    expect(sent.toolConfig?.tools.map((tool) => tool.toolSpec?.name)).toEqual(['computer', 'bash', 'get_weather']);
  });
});
