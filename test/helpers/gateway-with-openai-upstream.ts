/** A gateway in front of one fake OpenAI-compatible upstream, with providers by tool-calling mode. */
import type OpenAI from 'openai';
import { afterAll } from 'vitest';
import { startFakeOpenAiUpstream, type FakeOpenAiUpstream } from './fake-openai-upstream.js';
import { startGateway, testProvider, type StartedGateway, type TestConfigFile } from './start-gateway.js';

export type GatewayWithOpenAiUpstream = {
  upstream: FakeOpenAiUpstream;
  gateway: StartedGateway;
  client: OpenAI;
  close(): Promise<void>;
};

/** `providers`: provider name → `toolCalling` (`auto`, `native`, `prompted`), each an openai-compatible provider. */
export async function startGatewayWithOpenAiUpstream(providers: Record<string, string>): Promise<GatewayWithOpenAiUpstream> {
  const upstream = await startFakeOpenAiUpstream();
  const gateway = await startGateway({
    providers: Object.fromEntries(
      Object.entries(providers).map(([name, toolCalling]) => [
        name,
        testProvider('openai-compatible', `${upstream.url}/v1`, { toolCalling }),
      ]),
    ),
  });
  return {
    upstream,
    gateway,
    client: gateway.client(),
    close: async () => {
      await gateway.close();
      await upstream.close();
    },
  };
}

/**
 * A fake OpenAI-compatible upstream and a gateway configured from it, for a whole test file: call it with
 * top-level await; both close after the file's tests.
 */
export async function gatewayOverFakeOpenAi(
  configFor: (upstream: FakeOpenAiUpstream) => TestConfigFile,
  upstreamOptions: { models?: string[] } = {},
): Promise<{ upstream: FakeOpenAiUpstream; gateway: StartedGateway }> {
  const upstream = await startFakeOpenAiUpstream(upstreamOptions);
  const gateway = await startGateway(configFor(upstream));
  afterAll(async () => {
    await gateway.close();
    await upstream.close();
  });
  return { upstream, gateway };
}
