/**
 * Fake Claude (the Anthropic API) and fake Bedrock behind one gateway, as providers `claude` and `bedrock`,
 * for a whole test file: what the strict-tools and grammar-subset tests send both ways. Both fakes refuse
 * what the real grammar compilers refuse (grammar-schema-refusal.ts), so a wrong request fails the test.
 */
import { afterAll, beforeAll, expect } from 'vitest';
import { startFakeAnthropicUpstream, type FakeAnthropicUpstream } from './fake-anthropic-upstream.js';
import { startFakeBedrock, type FakeBedrock } from './fake-bedrock-server.js';
import { postJson } from './read-sse.js';
import { startGateway, testProvider, type StartedGateway } from './start-gateway.js';

/** AWS's documented example keys: the fake checks the SigV4 signature made with them. */
const credentials = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY' };

export type ClaudeAndBedrock = { anthropic: FakeAnthropicUpstream; bedrock: FakeBedrock; gateway: StartedGateway };

type BedrockOptions = Omit<Parameters<typeof startFakeBedrock>[0], 'region' | 'accessKeyId' | 'secretAccessKey'>;

/** Registers the `beforeAll` and `afterAll` in the calling test file; `bedrockOptions`: the fake Bedrock's models. */
export function claudeAndBedrockForFile(bedrockOptions: BedrockOptions = {}): ClaudeAndBedrock {
  const started: Partial<ClaudeAndBedrock> = {};
  beforeAll(async () => {
    started.anthropic = await startFakeAnthropicUpstream();
    started.bedrock = await startFakeBedrock({ region: 'us-east-1', ...credentials, ...bedrockOptions });
    started.gateway = await startGateway({
      providers: {
        claude: testProvider('anthropic', started.anthropic.url, { apiKey: 'sk-ant-test' }),
        bedrock: testProvider('bedrock', started.bedrock.url, { region: 'us-east-1', ...credentials }),
      },
    });
  });
  afterAll(async () => {
    await started.gateway?.close();
    await started.anthropic?.close();
    await started.bedrock?.close();
  });
  // Filled in before the file's first test runs, which is the only place its fields are read.
  return started as ClaudeAndBedrock;
}

/** Posts a JSON body to the gateway, expects a 200 (the body shown when not), and returns the parsed reply. */
export async function postForOk(url: string, body: unknown, headers: Record<string, string> = {}): Promise<unknown> {
  const response = await postJson(url, body, headers);
  expect(response.status, response.text).toBe(200);
  return JSON.parse(response.text) as unknown;
}
