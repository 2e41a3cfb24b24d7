/**
 * Claude behind one gateway three ways, for a whole test file: Anthropic's API (provider `claude`), Vertex AI's
 * rawPredict with the same Messages body (provider `vertex`), and Bedrock's Converse (provider `bedrock`). Each
 * fake refuses what its real API refuses, so a test that checks the upstream body also checks it is accepted.
 */
import { afterAll, beforeAll } from 'vitest';
import { startFakeAnthropicUpstream, type FakeAnthropicUpstream } from './fake-anthropic-upstream.js';
import { startFakeBedrock, type FakeBedrock } from './fake-bedrock-server.js';
import { startFakeVertex, type FakeVertex } from './fake-vertex-server.js';
import { startGateway, testProvider, type StartedGateway } from './start-gateway.js';

/** AWS's documented example keys: the fake checks the SigV4 signature made with them. */
const awsKeys = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY' };
const vertexToken = 'ya29.claude-three-ways';

export type ClaudeOnThreeProviders = {
  anthropic: FakeAnthropicUpstream;
  vertex: FakeVertex;
  bedrock: FakeBedrock;
  gateway: StartedGateway;
};

/** The Claude model each provider names, as the gateway's `provider/model`. */
export const claudeModels = {
  anthropic: 'claude/claude-sonnet-4-5',
  vertex: 'vertex/claude-sonnet-4-5@20250929',
  bedrock: 'bedrock/anthropic.claude-sonnet-4-5-20250929-v1:0',
} as const;

/** Registers the `beforeAll` and `afterAll` in the calling test file. */
export function claudeOnThreeProvidersForFile(): ClaudeOnThreeProviders {
  const started: Partial<ClaudeOnThreeProviders> = {};
  beforeAll(async () => {
    started.anthropic = await startFakeAnthropicUpstream();
    started.vertex = await startFakeVertex({ project: 'three', location: 'us-east5', bearerTokens: () => [vertexToken] });
    started.bedrock = await startFakeBedrock({ region: 'us-east-1', ...awsKeys });
    started.gateway = await startGateway({
      providers: {
        claude: testProvider('anthropic', started.anthropic.url, { apiKey: 'sk-ant-test' }),
        vertex: testProvider('vertex', started.vertex.url, { project: 'three', location: 'us-east5', accessToken: vertexToken }),
        bedrock: testProvider('bedrock', started.bedrock.url, { region: 'us-east-1', ...awsKeys }),
      },
    });
  });
  afterAll(async () => {
    await started.gateway?.close();
    await started.anthropic?.close();
    await started.vertex?.close();
    await started.bedrock?.close();
  });
  // Filled in before the file's first test runs, which is the only place its fields are read.
  return started as ClaudeOnThreeProviders;
}
