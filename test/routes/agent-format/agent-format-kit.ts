/** Shared set-up for the agent_format route tests: native and prompted fake upstreams, the real openai client. */
// Also the renderings the gateway should produce, from the same registry the app builds.
import OpenAI from 'openai';
import type { AgentTextSyntax } from '../../../src/core/agent-text-syntax.js';
import { createAgentSyntaxRegistry } from '../../../tool-formats/agent-syntaxes/index.js';
import { createToolFormatRegistry } from '../../../tool-formats/index.js';
import { startFakeOpenAiUpstream, type FakeOpenAiUpstream } from '../../helpers/fake-openai-upstream.js';
import { startGateway, testProvider, type StartedGateway, type TestConfigFile } from '../../helpers/start-gateway.js';

export type AgentFormatKit = {
  gateway: StartedGateway;
  client: OpenAI;
  /** Behind provider `native`, and behind provider `vllm` (the same upstream, as a vLLM server). */
  native: FakeOpenAiUpstream;
  /** Behind provider `prompted` (Qwen2.5 models get Hermes tags in their prompt). */
  prompted: FakeOpenAiUpstream;
  close(): Promise<void>;
};

export async function startAgentFormatKit(agentFormats?: Record<string, unknown>): Promise<AgentFormatKit> {
  const [native, prompted] = await Promise.all([startFakeOpenAiUpstream(), startFakeOpenAiUpstream()]);
  const file: TestConfigFile & { agentFormats?: Record<string, unknown> } = {
    providers: {
      native: testProvider('openai-compatible', `${native.url}/v1`, { toolCalling: 'native' }),
      prompted: testProvider('openai-compatible', `${prompted.url}/v1`, { toolCalling: 'prompted' }),
      // The native upstream again, as a vLLM server: one started without a tool parser leaves the markup as text.
      vllm: testProvider('openai-compatible', `${native.url}/v1`, { toolCalling: 'native', server: 'vllm' }),
    },
    ...(agentFormats ? { agentFormats } : {}),
  };
  const gateway = await startGateway(file).catch(async (error: unknown) => {
    await Promise.all([native.close(), prompted.close()]);
    throw error;
  });
  return {
    gateway,
    client: gateway.client(),
    native,
    prompted,
    close: async () => {
      await gateway.close();
      await Promise.all([native.close(), prompted.close()]);
    },
  };
}

export const syntaxes = createAgentSyntaxRegistry(createToolFormatRegistry()).syntaxes;

export function syntax(id: string): AgentTextSyntax {
  const found = syntaxes.get(id);
  if (!found) throw new Error(`no agent syntax ${id}`);
  return found;
}

export const tools: OpenAI.ChatCompletionTool[] = [
  {
    type: 'function',
    function: {
      name: 'get_weather',
      description: 'Current weather for a city',
      parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    },
  },
  { type: 'function', function: { name: 'get_time', description: 'The current time', parameters: { type: 'object', properties: {} } } },
];

export const twoCalls = [
  { name: 'get_weather', arguments: { city: 'Quito' } },
  { name: 'get_weather', arguments: { city: 'Lima' } },
];

/** What a prompted Qwen2.5 model writes for the two calls (Hermes tags). */
export const hermesReply = `Checking.\n${twoCalls.map((call) => `<tool_call>\n${JSON.stringify(call)}\n</tool_call>`).join('\n')}`;

/** What a prompted Mistral model writes for the two calls: one [TOOL_CALLS] array. */
export const mistralReply = `Checking.[TOOL_CALLS]${JSON.stringify(twoCalls)}`;

/** The content a text format should give for "Checking." and the two calls. */
export function expectedContent(format: AgentTextSyntax): string {
  return `Checking.\n${twoCalls.map((call) => format.renderCall({ name: call.name, arguments: JSON.stringify(call.arguments) })).join('\n')}`;
}

export type ChatOutcome = {
  content: string | null;
  toolCalls: { id: string; name: string; arguments: string }[];
  finishReason: string | null;
  headers: Headers;
};

type Body = Omit<OpenAI.ChatCompletionCreateParamsNonStreaming, 'stream'> & { agent_format?: string; tool_call_tags?: string };

/** One chat completion through the real client, streamed or not, folded the same way either way. */
export async function chat(
  client: OpenAI,
  body: Body,
  options: { stream: boolean; headers?: Record<string, string> },
): Promise<ChatOutcome> {
  const requestOptions = { headers: options.headers ?? {} };
  if (!options.stream) {
    const { data, response } = await client.chat.completions.create({ ...body, stream: false }, requestOptions).withResponse();
    const choice = data.choices[0];
    const toolCalls = (choice?.message.tool_calls ?? []).flatMap((call) =>
      call.type === 'function' ? [{ id: call.id, name: call.function.name, arguments: call.function.arguments }] : [],
    );
    return { content: choice?.message.content ?? null, toolCalls, finishReason: choice?.finish_reason ?? null, headers: response.headers };
  }
  const { data, response } = await client.chat.completions.create({ ...body, stream: true }, requestOptions).withResponse();
  let content: string | null = null;
  let finishReason: string | null = null;
  const toolCalls: ChatOutcome['toolCalls'] = [];
  for await (const chunk of data) {
    const choice = chunk.choices[0];
    if (!choice) continue;
    if (typeof choice.delta.content === 'string') content = (content ?? '') + choice.delta.content;
    for (const call of choice.delta.tool_calls ?? []) {
      const slot = (toolCalls[call.index] ??= { id: call.id ?? '', name: call.function?.name ?? '', arguments: '' });
      slot.arguments += call.function?.arguments ?? '';
    }
    if (choice.finish_reason) finishReason = choice.finish_reason;
  }
  return { content: content === '' ? null : content, toolCalls, finishReason, headers: response.headers };
}
