/**
 * One fake upstream and a gateway over it, for a whole test file: started before its tests and closed after
 * them, the gateway first (so that it stops asking the upstream before the upstream goes).
 */
import type OpenAI from 'openai';
import { afterAll, beforeAll } from 'vitest';
import { startGateway, type StartedGateway, type TestConfigFile } from './start-gateway.js';

export type GatewayOverUpstream<Upstream> = { upstream: Upstream; gateway: StartedGateway; client: OpenAI };

/** Registers the `beforeAll` and `afterAll` in the calling test file; `providers`: the gateway's, given the upstream's URL. */
export function gatewayOverUpstream<Upstream extends { url: string; close(): Promise<void> }>(
  startUpstream: () => Promise<Upstream>,
  providers: (upstreamUrl: string) => TestConfigFile['providers'],
): GatewayOverUpstream<Upstream> {
  const started: Partial<GatewayOverUpstream<Upstream>> = {};
  beforeAll(async () => {
    started.upstream = await startUpstream();
    started.gateway = await startGateway({ providers: providers(started.upstream.url) });
    started.client = started.gateway.client();
  });
  afterAll(async () => {
    await started.gateway?.close();
    await started.upstream?.close();
  });
  // Filled in before the file's first test runs, which is the only place its fields are read.
  return started as GatewayOverUpstream<Upstream>;
}
