/** opencode scenarios: the real opencode agent, its gateway an `@ai-sdk/openai-compatible` provider in opencode.json. */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { defaultUsage } from '../helpers/fake-openai-upstream.js';
import { agentTimeoutMs, everyLane, models, prompt } from './agent-scenarios.js';
import { cleanEnvironment, runProcess } from './run-process.js';
import { breakNextAnswer, check, checkAgentRun, ScenarioFailure, type Scenario, type ScenarioContext } from './scenario.js';

const run = promisify(execFile);

type OpencodeEvent = {
  type: string;
  part?: { reason?: string; state?: { status?: string }; tokens?: { input?: number; output?: number } };
};

/**
 * The package's postinstall links the platform binary (an optional dependency) to `bin/opencode.exe`;
 * where install scripts are blocked that file stays a placeholder, so the platform packages are tried too.
 */
async function opencodeBinary(prefix: string): Promise<string> {
  const candidates = ['opencode-ai/bin/opencode.exe', 'opencode-linux-x64/bin/opencode', 'opencode-linux-x64-baseline/bin/opencode'].map(
    (file) => path.join(prefix, 'node_modules', file),
  );
  for (const candidate of candidates) {
    if (!existsSync(candidate)) continue;
    try {
      await run(candidate, ['--version'], { timeout: 30_000 });
      return candidate;
    } catch {
      // Not runnable here (a placeholder, or a CPU without AVX2): try the next one.
    }
  }
  throw new ScenarioFailure(`no runnable opencode binary among ${candidates.join(', ')}`);
}

/** The configuration README "Clients: opencode" documents. */
function opencodeConfig(context: ScenarioContext, model: string, providerPackage: OpencodeProviderPackage): Record<string, unknown> {
  return {
    autoupdate: false,
    share: 'disabled',
    provider: {
      interlingua: {
        npm: providerPackage,
        name: 'Interlingua',
        options: { baseURL: `${context.gatewayUrl}/v1`, apiKey: 'sk-matrix' },
        models: { [model]: { name: model, tool_call: true } },
      },
    },
    permission: { bash: 'allow', edit: 'allow', write: 'allow' },
  };
}

/** The AI SDK provider opencode loads for the gateway: Chat Completions, Responses, or Anthropic Messages. */
type OpencodeProviderPackage = '@ai-sdk/openai-compatible' | '@ai-sdk/openai' | '@ai-sdk/anthropic';

async function runOpencode(
  context: ScenarioContext,
  model: string,
  providerPackage: OpencodeProviderPackage = '@ai-sdk/openai-compatible',
): Promise<void> {
  const requestsBefore = context.upstream.chatRequests().length;
  await writeFile(path.join(context.workDir, 'opencode.json'), JSON.stringify(opencodeConfig(context, model, providerPackage), null, 2));
  const env = cleanEnvironment(context.workDir, {
    XDG_CONFIG_HOME: path.join(context.workDir, '.config'),
    XDG_DATA_HOME: path.join(context.workDir, '.local/share'),
    XDG_CACHE_HOME: path.join(context.workDir, '.cache'),
    XDG_STATE_HOME: path.join(context.workDir, '.local/state'),
    OPENCODE_DISABLE_AUTOUPDATE: '1',
    OPENCODE_DISABLE_MODELS_FETCH: '1',
    OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
    OPENCODE_DISABLE_SHARE: '1',
  });
  const args = ['run', '--pure', '--format', 'json', '-m', `interlingua/${model}`, prompt(context)];
  const result = await runProcess(await opencodeBinary(context.prefix), args, { cwd: context.workDir, env, timeoutMs: agentTimeoutMs });
  checkAgentRun(context, result, requestsBefore);
  // Its own JSON events: the tool ran to completion and the last step stopped (not a tool-call or error step).
  const events = result.stdout.split('\n').flatMap((line) => (line.startsWith('{') ? [JSON.parse(line) as OpencodeEvent] : []));
  check(
    events.some((event) => event.type === 'tool_use' && event.part?.state?.status === 'completed'),
    'no completed tool_use event',
  );
  const lastStep = events.filter((event) => event.type === 'step_finish').at(-1)?.part;
  check(lastStep?.reason === 'stop', 'the last step did not finish with reason stop');
  // The upstream's token counts reached the client unchanged, whichever API surface carried them.
  check(
    lastStep.tokens?.input === defaultUsage.prompt_tokens && lastStep.tokens.output === defaultUsage.completion_tokens,
    `the last step counted ${JSON.stringify(lastStep.tokens)} tokens`,
  );
}

// The prompted lane on Responses and Messages is covered by Codex, Claude Code and the SDKs; these two prove opencode's other providers.
export const opencodeScenarios: Scenario[] = [
  ...everyLane('opencode', 'opencode', (context, model) => runOpencode(context, model)),
  {
    name: 'opencode responses (@ai-sdk/openai) native',
    group: 'opencode',
    run: (context) => runOpencode(context, models.native, '@ai-sdk/openai'),
  },
  {
    name: 'opencode messages (@ai-sdk/anthropic) native',
    group: 'opencode',
    run: (context) => runOpencode(context, models.native, '@ai-sdk/anthropic'),
  },
  // The first answer breaks off after a few chunks; opencode retries the step and the session completes.
  {
    name: 'opencode with a mid-stream upstream failure (retried)',
    group: 'opencode',
    run: (context) => (breakNextAnswer(context), runOpencode(context, models.native)),
  },
];
