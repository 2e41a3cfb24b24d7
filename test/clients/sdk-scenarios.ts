/** SDK scenarios: the AI SDK, LangChain, the Anthropic SDK and the OpenAI Node and Python SDKs, each with its own write_file tool. */
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { models } from './agent-scenarios.js';
import { cleanEnvironment, runProcess } from './run-process.js';
import { check, checkAgentRun, type Scenario, type ScenarioContext } from './scenario.js';
import { bedrockAsChatUpstream } from './scripted-bedrock-upstream.js';
import { geminiAsChatUpstream } from './scripted-gemini-upstream.js';
import { sdkScripts } from './sdk-scripts.js';

type SdkRun = { script: keyof typeof sdkScripts; model: string; env?: Record<string, string> };

async function runSdk(context: ScenarioContext, run: SdkRun): Promise<void> {
  const requestsBefore = context.upstream.chatRequests().length;
  const python = run.script === 'openaiPython';
  // Inside the prefix, so `import 'ai'` resolves to the cached install.
  const file = path.join(context.prefix, `${path.basename(context.workDir)}-${run.script}.${python ? 'py' : 'mjs'}`);
  await writeFile(file, sdkScripts[run.script]);
  const env = cleanEnvironment(context.workDir, {
    GATEWAY: context.gatewayUrl,
    MODEL: run.model,
    PROMPT: `CREATE ${context.task.file} WITH ${context.task.marker}`,
    WORK_DIR: context.workDir,
    ...run.env,
  });
  const command = python ? path.join(context.prefix, 'venv/bin/python') : process.execPath;
  const result = await runProcess(command, [file], { cwd: context.prefix, env, timeoutMs: 120_000 }).finally(() =>
    rm(file, { force: true }),
  );
  checkAgentRun(context, result, requestsBefore);
  const references = /ITEM_REFERENCES=(\d+)/.exec(result.stdout)?.[1];
  if (run.env?.API === 'responses') {
    // The point of the store-on scenario: the provider really sent item_reference, and the gateway resolved it.
    check(
      references !== undefined && (run.env.STORE === 'true') === Number(references) > 0,
      `store ${run.env.STORE} sent ${references} item_reference items`,
    );
  }
}

function bothLanes(name: string, group: string, run: Omit<SdkRun, 'model'>): Scenario[] {
  return [
    { name: `${name} native`, group, run: (context) => runSdk(context, { ...run, model: models.native }) },
    { name: `${name} prompted hermes`, group, run: (context) => runSdk(context, { ...run, model: models.hermes }) },
  ];
}

export const sdkScenarios: Scenario[] = [
  ...bothLanes('ai sdk chat provider', 'sdks', { script: 'aiSdk', env: { API: 'chat', STORE: 'false' } }),
  ...bothLanes('ai sdk responses provider, store on (item_reference)', 'sdks', {
    script: 'aiSdk',
    env: { API: 'responses', STORE: 'true' },
  }),
  ...bothLanes('ai sdk responses provider, store off', 'sdks', { script: 'aiSdk', env: { API: 'responses', STORE: 'false' } }),
  ...bothLanes('langchain chat', 'sdks', { script: 'langchain', env: { USE_RESPONSES: 'false' } }),
  ...bothLanes('langchain responses', 'sdks', { script: 'langchain', env: { USE_RESPONSES: 'true' } }),
  ...bothLanes('anthropic sdk messages', 'sdks', { script: 'anthropicSdk' }),
  ...bothLanes('openai node sdk chat', 'sdks', { script: 'openaiNode' }),
  ...bothLanes('openai python sdk chat (venv)', 'python', { script: 'openaiPython' }),
  // The cloud kinds: the same agent loop through the fake Azure OpenAI resource and the fake Vertex AI endpoint.
  {
    name: 'openai node sdk chat via azure-openai',
    group: 'sdks',
    run: (context) => runSdk(context, { script: 'openaiNode', model: 'azure/gpt-5.5' }),
  },
  {
    name: 'openai node sdk chat via vertex (gemini)',
    group: 'sdks',
    run: (context) =>
      runSdk(
        { ...context, upstream: geminiAsChatUpstream(context.vertexGemini, context.upstream) },
        { script: 'openaiNode', model: 'vertex/gemini-2.5-pro' },
      ),
  },
  {
    name: 'openai node sdk chat via bedrock (claude)',
    group: 'sdks',
    run: (context) =>
      runSdk(
        { ...context, upstream: bedrockAsChatUpstream(context.bedrock, context.upstream) },
        { script: 'openaiNode', model: 'bedrock/anthropic.claude-sonnet-4-5-20250929-v1:0' },
      ),
  },
];
