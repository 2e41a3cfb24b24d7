/**
 * `npm run test:clients`: the real-client matrix. Installs the pinned clients into a cache outside
 * the repository, starts a scripted fake upstream and the gateway on 127.0.0.1, runs every scenario
 * (native and prompted lanes) and prints one line each, then `N passed, M failed, K skipped`.
 * A client group that cannot be installed (no registry) is SKIPPED, loudly, with the reason.
 * `--only TEXT` runs the scenarios whose name contains TEXT.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startFakeAzureOpenAi } from '../helpers/fake-azure-openai-server.js';
import { startFakeBedrock } from '../helpers/fake-bedrock-server.js';
import { startFakeOpenAiUpstream } from '../helpers/fake-openai-upstream.js';
import { startFakeVertex } from '../helpers/fake-vertex-server.js';
import { startGateway, testProvider } from '../helpers/start-gateway.js';
import { agentScenarios } from './agent-scenarios.js';
import { installGroup, registryReachable, type InstalledGroup } from './client-cache.js';
import { installPythonGroup } from './python-venv.js';
import { continueCliScenarios } from './continue-cli-scenarios.js';
import { opencodeScenarios } from './opencode-scenarios.js';
import { ScenarioFailure, type Scenario } from './scenario.js';
import { scriptedReply } from './scripted-agent-upstream.js';
import { scriptedBedrockReply } from './scripted-bedrock-upstream.js';
import { scriptedGeminiReply } from './scripted-gemini-upstream.js';
import { sdkScenarios } from './sdk-scenarios.js';

const groups: Record<string, string[]> = {
  codex: ['@openai/codex@0.171.0'],
  'codex-chat': ['@openai/codex@0.77.0'],
  'claude-code': ['@anthropic-ai/claude-code@2.1.332'],
  opencode: ['opencode-ai@1.18.33'],
  continue: ['@continuedev/cli@1.5.47'],
  sdks: [
    'ai@7.0.173',
    '@ai-sdk/openai@4.0.118',
    '@langchain/openai@1.6.0',
    '@langchain/core@1.4.0',
    '@anthropic-ai/sdk@1.15.0',
    'openai@6.49.0',
  ],
};
const pythonPackages = ['openai==3.22.1'];

function argumentAfter(flag: string): string | undefined {
  const index = process.argv.indexOf(flag);
  return index >= 0 ? process.argv[index + 1] : undefined;
}

async function prepareGroups(names: Set<string>): Promise<Map<string, InstalledGroup>> {
  const installed = new Map<string, InstalledGroup>();
  const registry = await registryReachable(groups.codex![0]!);
  for (const name of names) {
    const started = Date.now();
    const result =
      name === 'python'
        ? await installPythonGroup(pythonPackages)
        : registry.ok
          ? await installGroup({ name, packages: groups[name]! })
          : { type: 'unavailable' as const, reason: registry.reason };
    installed.set(name, result);
    const seconds = Math.round((Date.now() - started) / 1000);
    console.log(
      result.type === 'installed'
        ? `install ${name}: ${result.fromCache ? 'cached' : `installed in ${seconds} s`}`
        : `install ${name}: UNAVAILABLE (${result.reason})`,
    );
  }
  return installed;
}

async function main(): Promise<number> {
  const only = argumentAfter('--only');
  const scenarios: Scenario[] = [...agentScenarios, ...opencodeScenarios, ...continueCliScenarios, ...sdkScenarios].filter(
    (scenario) => !only || scenario.name.includes(only),
  );
  const matrixStarted = Date.now();
  const installed = await prepareGroups(new Set(scenarios.map((scenario) => scenario.group)));

  const upstream = await startFakeOpenAiUpstream();
  upstream.respondWith(scriptedReply);
  // The cloud kinds' rows: Azure relays to the same scripted upstream; Vertex's Gemini side is scripted alike.
  const azure = await startFakeAzureOpenAi({ deployments: ['gpt-5.5'], apiKey: 'azure-matrix', openai: upstream });
  const vertex = await startFakeVertex({ project: 'matrix', location: 'global', bearerTokens: () => ['ya29.matrix'] });
  vertex.gemini.respondWith(scriptedGeminiReply);
  const bedrockKeys = { accessKeyId: 'AKIAMATRIX0000000001', secretAccessKey: 'matrix-secret-0000000000000000000000000' };
  const bedrock = await startFakeBedrock({ region: 'us-east-1', ...bedrockKeys });
  bedrock.respondWith(scriptedBedrockReply);
  const gateway = await startGateway({
    providers: {
      native: testProvider('openai-compatible', `${upstream.url}/v1`, { toolCalling: 'native' }),
      prompted: testProvider('openai-compatible', `${upstream.url}/v1`, { toolCalling: 'prompted' }),
      azure: testProvider('azure-openai', azure.url, { apiKey: 'azure-matrix' }),
      vertex: testProvider('vertex', vertex.url, { project: 'matrix', location: 'global', accessToken: 'ya29.matrix' }),
      bedrock: testProvider('bedrock', bedrock.url, { region: 'us-east-1', ...bedrockKeys }),
    },
  });
  // Counted at the gateway's HTTP server, so the WebSocket scenario proves the transport Codex really used.
  let webSocketConnections = 0;
  gateway.app.server.on('upgrade', () => webSocketConnections++);
  const counts = { passed: 0, failed: 0, skipped: 0 };
  try {
    for (const [index, scenario] of scenarios.entries()) {
      const group = installed.get(scenario.group);
      if (group?.type !== 'installed') {
        counts.skipped++;
        console.log(`SKIPPED  ${scenario.name}: its client could not be installed: ${group?.reason ?? 'unknown group'}`);
        continue;
      }
      const workDir = await mkdtemp(path.join(os.tmpdir(), 'interlingua-client-'));
      const task = { kind: 'create' as const, file: `probe-${index}.txt`, marker: `M${index}x${Date.now().toString(36)}` };
      const started = Date.now();
      try {
        await scenario.run({
          gatewayUrl: gateway.baseUrl,
          upstream,
          vertexGemini: vertex.gemini,
          bedrock,
          prefix: group.prefix,
          workDir,
          task,
          webSocketConnections: () => webSocketConnections,
        });
        counts.passed++;
        console.log(`PASS     ${scenario.name} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
      } catch (error) {
        counts.failed++;
        const reason = error instanceof ScenarioFailure ? error.message : String((error as Error).stack ?? error);
        console.log(`FAIL     ${scenario.name} (${((Date.now() - started) / 1000).toFixed(1)} s): ${reason}`);
      } finally {
        upstream.respondWith(scriptedReply);
        await rm(workDir, { recursive: true, force: true });
      }
    }
  } finally {
    await gateway.close();
    await Promise.all([azure.close(), vertex.close(), bedrock.close()]);
    await upstream.close();
  }
  if (counts.skipped > 0) console.log(`\n*** SKIPPED ${counts.skipped} client scenarios: see the reasons above. ***\n`);
  console.log(`client matrix took ${Math.round((Date.now() - matrixStarted) / 1000)} s`);
  console.log(`${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`);
  return counts.failed > 0 ? 1 : 0;
}

process.exitCode = await main();
