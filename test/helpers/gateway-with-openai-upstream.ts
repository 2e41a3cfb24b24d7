/** A gateway in front of one fake OpenAI-compatible upstream, with providers by tool-calling mode. */
import type OpenAI from 'openai';
import { startFakeOpenAiUpstream, type FakeOpenAiUpstream } from './fake-openai-upstream.js';
import { startGateway, testProvider, type StartedGateway } from './start-gateway.js';

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
