/** Continue CLI (`cn`) scenarios: the real headless agent, its gateway an `openai` provider with `apiBase` in its config YAML. */
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { agentTimeoutMs, everyLane, models, prompt } from './agent-scenarios.js';
import { cleanEnvironment, runProcess, type ProcessResult } from './run-process.js';
import { breakNextAnswer, brokenStreamMessage, check, checkAgentRun, type Scenario, type ScenarioContext } from './scenario.js';
import { finalText } from './scripted-agent-upstream.js';

/** The configuration README "Clients: Continue CLI" documents (YAML is a superset of JSON, so JSON text is valid here). */
function continueConfig(context: ScenarioContext, model: string, provider: ContinueProvider): Record<string, unknown> {
  return {
    name: 'Interlingua',
    version: '1.0.0',
    schema: 'v1',
    models: [
      {
        name: 'interlingua',
        provider,
        model,
        apiBase: `${context.gatewayUrl}/v1/`,
        apiKey: 'sk-matrix',
        roles: ['chat'],
        capabilities: ['tool_use'],
      },
    ],
  };
}

/** `openai` speaks Chat Completions, `anthropic` Messages (both resolve paths against `apiBase`, hence its trailing slash). */
type ContinueProvider = 'openai' | 'anthropic';

async function runCn(context: ScenarioContext, model: string, provider: ContinueProvider): Promise<ProcessResult> {
  const configFile = path.join(context.workDir, 'interlingua.yaml');
  await writeFile(configFile, JSON.stringify(continueConfig(context, model, provider), null, 2));
  const env = cleanEnvironment(context.workDir, {
    CONTINUE_GLOBAL_DIR: path.join(context.workDir, '.continue'),
    CONTINUE_CLI_ENABLE_TELEMETRY: '0',
    CONTINUE_METRICS_ENABLED: '0',
  });
  // Run by this Node, not the `#!/usr/bin/env node` of its bin, so the tested Node is the project's.
  const cli = path.join(context.prefix, 'node_modules/@continuedev/cli/dist/cn.js');
  const args = [cli, '-p', prompt(context), '--config', configFile, '--auto'];
  return runProcess(process.execPath, args, { cwd: context.workDir, env, timeoutMs: agentTimeoutMs });
}

async function runContinue(context: ScenarioContext, model: string, provider: ContinueProvider = 'openai'): Promise<void> {
  const requestsBefore = context.upstream.chatRequests().length;
  const result = await runCn(context, model, provider);
  checkAgentRun(context, result, requestsBefore);
  // Headless `-p` prints only the final answer: anything else on stdout would break its use in pipes.
  check(
    result.stdout.trim() === finalText(context.task),
    `stdout is not just the final text: ${JSON.stringify(result.stdout.slice(0, 300))}`,
  );
}

export const continueCliScenarios: Scenario[] = [
  ...everyLane('continue cn', 'continue', (context, model) => runContinue(context, model)),
  { name: 'continue cn anthropic provider native', group: 'continue', run: (context) => runContinue(context, models.native, 'anthropic') },
  {
    name: 'continue cn anthropic provider prompted qwen3-coder',
    group: 'continue',
    run: (context) => runContinue(context, models.qwen3Coder, 'anthropic'),
  },
  {
    name: 'continue cn with a mid-stream upstream failure (reported)',
    group: 'continue',
    run: async (context) => {
      // cn does not retry a broken stream: it must exit 1 with the gateway's message, not hang or claim success.
      breakNextAnswer(context);
      const result = await runCn(context, models.native, 'openai');
      const output = `${result.stdout}\n${result.stderr}`;
      check(!result.timedOut && result.exitCode === 1, `exit code ${result.exitCode}${result.timedOut ? ' (timed out)' : ''}, expected 1`);
      check(output.includes(brokenStreamMessage), `the gateway's error message is missing: ${output.slice(-300)}`);
      check(!existsSync(path.join(context.workDir, context.task.file)), 'a file was created although the model never called a tool');
    },
  },
];
