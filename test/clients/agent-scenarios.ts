/** Codex CLI and Claude Code scenarios: real agents that run their own shell tool against the gateway. */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { cleanEnvironment, runProcess } from './run-process.js';
import { breakNextAnswer, check, checkAgentRun, type Scenario, type ScenarioContext } from './scenario.js';
import { offeredTools, scriptedReply, type ChatRequestBody } from './scripted-agent-upstream.js';

export const models = {
  native: 'native/gpt-5.5',
  qwen3Coder: 'prompted/qwen3-coder-30b-a3b-instruct',
  hermes: 'prompted/hermes-3-llama-3.1-8b',
} as const;

export const agentTimeoutMs = 180_000;

/** One scenario per lane: native, prompted Qwen3-Coder XML and prompted Hermes JSON. */
export function everyLane(name: string, group: string, run: (context: ScenarioContext, model: string) => Promise<void>): Scenario[] {
  return [
    { name: `${name} native`, group, run: (context) => run(context, models.native) },
    { name: `${name} prompted qwen3-coder`, group, run: (context) => run(context, models.qwen3Coder) },
    { name: `${name} prompted hermes`, group, run: (context) => run(context, models.hermes) },
  ];
}

/** The task as the user types it; the scripted upstream recognises it (scripted-agent-upstream.ts). */
export function prompt(context: ScenarioContext): string {
  const verb = context.task.kind === 'patch' ? 'PATCH' : 'CREATE';
  return `${verb} ${context.task.file} WITH ${context.task.marker}`;
}

type CodexOptions = { model: string; baseUrl?: string; webSocket?: boolean; wireApi?: 'responses' | 'chat' };

async function runCodex(context: ScenarioContext, options: CodexOptions): Promise<void> {
  const requestsBefore = context.upstream.chatRequests().length;
  const socketsBefore = context.webSocketConnections();
  const provider = [
    'name="Interlingua"',
    `base_url="${options.baseUrl ?? `${context.gatewayUrl}/v1`}"`,
    'env_key="GW_API_KEY"',
    `wire_api="${options.wireApi ?? 'responses'}"`,
    'request_max_retries=0',
    'stream_max_retries=0',
    `supports_websockets=${options.webSocket === true}`,
  ].join(',');
  const args = [
    'exec',
    '--skip-git-repo-check',
    '--sandbox',
    'danger-full-access',
    '--json',
    '-m',
    options.model,
    '-c',
    'model_provider=gw',
    '-c',
    `model_providers.gw={${provider}}`,
    '-c',
    'check_for_update_on_startup=false',
    '-c',
    'analytics.enabled=false',
    '-c',
    'feedback.enabled=false',
    prompt(context),
  ];
  const codexHome = path.join(context.workDir, '.codex');
  await mkdir(codexHome, { recursive: true });
  const env = cleanEnvironment(context.workDir, { GW_API_KEY: 'sk-matrix', CODEX_HOME: codexHome });
  const result = await runProcess(path.join(context.prefix, 'node_modules/.bin/codex'), args, {
    cwd: context.workDir,
    env,
    timeoutMs: agentTimeoutMs,
  });
  checkAgentRun(context, result, requestsBefore);
  if (options.webSocket) {
    const output = result.stdout + result.stderr;
    check(
      !/Falling back from WebSockets|failed to connect to Responses WebSocket/i.test(output),
      'Codex fell back from the WebSocket transport to HTTP',
    );
    check(context.webSocketConnections() > socketsBefore, 'Codex opened no WebSocket connection to the gateway');
  }
}

/** `bare`: Claude Code's minimal mode (no hooks, plugins, MCP, auto-memory, CLAUDE.md discovery); it reads only ANTHROPIC_API_KEY (sent as x-api-key). */
type ClaudeOptions = { model: string; thinking?: boolean; bare?: boolean };

async function runClaude(context: ScenarioContext, options: ClaudeOptions): Promise<void> {
  const requestsBefore = context.upstream.chatRequests().length;
  const env = cleanEnvironment(context.workDir, {
    ANTHROPIC_BASE_URL: context.gatewayUrl,
    ...(options.bare ? { ANTHROPIC_API_KEY: 'sk-matrix' } : { ANTHROPIC_AUTH_TOKEN: 'sk-matrix' }),
    ANTHROPIC_MODEL: options.model,
    ANTHROPIC_SMALL_FAST_MODEL: options.model,
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_ERROR_REPORTING: '1',
    ...(options.thinking ? { MAX_THINKING_TOKENS: '2048' } : {}),
  });
  const args = [
    '-p',
    prompt(context),
    ...(options.bare ? ['--bare'] : []),
    '--allowedTools',
    'Bash',
    '--output-format',
    'text',
    '--max-turns',
    '6',
  ];
  const result = await runProcess(path.join(context.prefix, 'node_modules/.bin/claude'), args, {
    cwd: context.workDir,
    env,
    timeoutMs: agentTimeoutMs,
  });
  checkAgentRun(context, result, requestsBefore);
  if (options.bare) {
    // Proof that minimal mode was on: it offers Bash, Edit and Read, none of the full mode's Agent, Skill or Write.
    const body = (context.upstream.chatRequests()[requestsBefore]?.body ?? {}) as ChatRequestBody;
    const offered = offeredTools(body, JSON.stringify(body.messages ?? []), ['Agent', 'Bash', 'Skill', 'Write']);
    check(
      offered.includes('Bash') && !offered.some((name) => ['Agent', 'Skill', 'Write'].includes(name)),
      `bare mode offered ${offered.join(', ')}`,
    );
  }
}

export const agentScenarios: Scenario[] = [
  { name: 'codex 0.171 native (exec_command)', group: 'codex', run: (context) => runCodex(context, { model: models.native }) },
  { name: 'codex 0.171 prompted qwen3-coder', group: 'codex', run: (context) => runCodex(context, { model: models.qwen3Coder }) },
  { name: 'codex 0.171 prompted hermes', group: 'codex', run: (context) => runCodex(context, { model: models.hermes }) },
  {
    name: 'codex 0.171 apply_patch (known slug on /native/v1)',
    group: 'codex',
    run: (context) =>
      runCodex({ ...context, task: { ...context.task, kind: 'patch' } }, { model: 'gpt-5.5', baseUrl: `${context.gatewayUrl}/native/v1` }),
  },
  { name: 'codex 0.171 over WebSocket', group: 'codex', run: (context) => runCodex(context, { model: models.native, webSocket: true }) },
  { name: 'codex 0.77 chat wire', group: 'codex-chat', run: (context) => runCodex(context, { model: models.native, wireApi: 'chat' }) },
  { name: 'claude code native', group: 'claude-code', run: (context) => runClaude(context, { model: models.native }) },
  { name: 'claude code prompted qwen3-coder', group: 'claude-code', run: (context) => runClaude(context, { model: models.qwen3Coder }) },
  ...everyLane('claude code bare', 'claude-code', (context, model) => runClaude(context, { model, bare: true })),
  {
    name: 'claude code with thinking on',
    group: 'claude-code',
    run: async (context) => {
      context.upstream.respondWith((request) => scriptedReply(request, { reasoning: 'Thinking about the file.' }));
      try {
        await runClaude(context, { model: models.native, thinking: true });
      } finally {
        context.upstream.respondWith(scriptedReply);
      }
    },
  },
  {
    name: 'claude code with a mid-stream upstream failure (retried)',
    group: 'claude-code',
    run: async (context) => {
      // The first answer breaks off after a few chunks; Claude Code retries and the session completes.
      breakNextAnswer(context);
      await runClaude(context, { model: models.native });
    },
  },
];
