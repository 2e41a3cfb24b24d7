/**
 * The gateway in front of one replay upstream, with one provider per recorded server kind, and the
 * request that replays a capture (its model, and tools for the calls it makes, so none is dropped).
 */
import type OpenAI from 'openai';
import { afterAll, beforeAll } from 'vitest';
import { startReplayUpstream, type ReplayUpstream, type WireFixture } from '../helpers/replay-upstream.js';
import { startGateway, testProvider, type StartedGateway } from '../helpers/start-gateway.js';
import { captureContents, capturedModel } from './capture-contents.js';

type ReplayGateway = { upstream: ReplayUpstream; gateway: StartedGateway; close(): Promise<void> };

async function startReplayGateway(): Promise<ReplayGateway> {
  const upstream = await startReplayUpstream();
  // Native tool calling throughout: the captures are of servers that parsed the calls themselves.
  const native = { toolCalling: 'native' };
  const gateway = await startGateway({
    providers: {
      openai: testProvider('openai', `${upstream.url}/v1`, { apiKey: 'replay-key' }),
      vllm: testProvider('openai-compatible', `${upstream.url}/v1`, native),
      'llama-cpp': testProvider('openai-compatible', `${upstream.url}/v1`, native),
      ollama: testProvider('ollama', upstream.url, native),
      'ollama-v1': testProvider('openai-compatible', `${upstream.url}/v1`, native),
      anthropic: testProvider('anthropic', upstream.url, { apiKey: 'replay-key' }),
      gemini: testProvider('gemini', upstream.url, { apiKey: 'replay-key' }),
    },
  });
  return {
    upstream,
    gateway,
    close: async () => {
      await gateway.close();
      await upstream.close();
    },
  };
}

/** `provider/model` for a capture: Ollama's OpenAI-compatible captures go to the `ollama-v1` provider. */
export function replayModel(fixture: WireFixture): string {
  const provider = fixture.server === 'ollama' && fixture.protocol === 'openai-chat' ? 'ollama-v1' : fixture.server;
  return `${provider}/${capturedModel(fixture) ?? 'replayed-model'}`;
}

/** One loose tool per name the capture calls, so the gateway has nothing to drop or repair. */
export function toolsFor(fixture: WireFixture): OpenAI.ChatCompletionFunctionTool[] | undefined {
  const names = [...new Set(captureContents(fixture).calls.map((call) => call.name))];
  if (!names.length) return undefined;
  return names.map((name) => ({ type: 'function', function: { name, description: `Replayed ${name}`, parameters: { type: 'object' } } }));
}

/** A replay gateway for a whole test file: started before its tests, closed after them. */
export function useReplayGateway(): () => ReplayGateway {
  let kit: ReplayGateway | undefined;
  beforeAll(async () => {
    kit = await startReplayGateway();
  });
  afterAll(async () => {
    await kit?.close();
  });
  return () => {
    if (!kit) throw new Error('the replay gateway is used before beforeAll ran');
    return kit;
  };
}
