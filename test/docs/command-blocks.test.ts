/**
 * The commands the README and docs/ tell a user to type do what the pages say. Every `sh`, `bash` and
 * `ts` block is either run here, as written, against a real gateway process (`node --import tsx
 * src/server.ts --config FILE`, as `npm start` runs it) whose upstreams are the fake vLLM and Ollama servers,
 * or named below with the test that runs it in its own setting. Only the address changes: the pages say
 * 127.0.0.1:8080, the test's gateway listens on a free port.
 */
import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, GatewayProcesses, projectRoot, waitForHealth } from '../helpers/gateway-process.js';
import type { FakeInferenceServer } from '../helpers/fake-inference-server.js';
import { startFakeOllamaServer } from '../helpers/fake-ollama-server.js';
import { startFakeVllmServer } from '../helpers/fake-vllm-server.js';
import { scriptedModels } from '../helpers/scripted-models.js';

const run = promisify(execFile);
const documentedAddress = 'http://127.0.0.1:8080';

type Block = { where: string; language: string; text: string };

function commandBlocks(): Block[] {
  const pages = [
    'README.md',
    ...readdirSync(path.join(projectRoot, 'docs'))
      .filter((name) => name.endsWith('.md'))
      .map((name) => `docs/${name}`),
  ];
  const blocks: Block[] = [];
  for (const page of pages) {
    const lines = readFileSync(path.join(projectRoot, page), 'utf8').split('\n');
    for (let index = 0; index < lines.length; index++) {
      const opening = /^```(sh|bash|ts)$/.exec(lines[index] as string);
      if (!opening) continue;
      const start = index + 1;
      const body: string[] = [];
      for (index++; !(lines[index] as string).startsWith('```'); index++) body.push(lines[index] as string);
      blocks.push({ where: `${page}:${start}`, language: opening[1] as string, text: body.join('\n') });
    }
  }
  return blocks;
}

/** Blocks this file does not run, by what they start with, and where they are run instead. */
const runElsewhere: readonly { startsWith: RegExp; runBy: string }[] = [
  { startsWith: /^npm (ci|start|test)\b/, runBy: '.ci/run on a clean clone (npm ci, npm test) and test/server.test.ts (npm start)' },
  {
    startsWith: /^(GW_API_KEY=\S+ codex|ANTHROPIC_BASE_URL=|OPENCODE_DISABLE|CONTINUE_CLI)/,
    runBy: 'the client matrix (npm run test:clients)',
  },
  { startsWith: /^docker build/, runBy: 'test/deploy (the Dockerfile and its entry point)' },
  // It signals every gateway on the machine, including those of tests running beside this one.
  { startsWith: /^kill -HUP/, runBy: 'test/live-reload.test.ts (SIGHUP to its own process)' },
];

const blocks = commandBlocks();
const runHere = blocks.filter((block) => !runElsewhere.some((rule) => rule.startsWith.test(block.text)));
// .ci/run installs curl; elsewhere, without it, the curl blocks are skipped loudly rather than failed.
const curlAvailable = spawnSync('curl', ['--version']).status === 0;
if (!curlAvailable) console.warn("SKIPPED the docs' curl blocks: no curl on PATH (apt-get install curl; .ci/run does this)");

/** The JSON a block's `# {…}` comment lines show as its output, if it shows one. */
function shownOutput(text: string): unknown {
  const shown = text
    .split('\n')
    .filter((line) => line.startsWith('# '))
    .map((line) => line.slice(2))
    .join('');
  return shown.startsWith('{') ? JSON.parse(shown) : undefined;
}

/** `actual` has everything `shown` shows; a shown string ending in `…` is a prefix. */
function expectShown(actual: unknown, shown: unknown, at = '$'): void {
  if (typeof shown === 'string' && shown.endsWith('…')) {
    expect(actual, at).toEqual(expect.stringMatching(`^${shown.slice(0, -1).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
  } else if (Array.isArray(shown)) {
    expect(Array.isArray(actual) && actual.length === shown.length, at).toBe(true);
    shown.forEach((item, index) => expectShown((actual as unknown[])[index], item, `${at}[${index}]`));
  } else if (shown !== null && typeof shown === 'object') {
    for (const [key, value] of Object.entries(shown)) expectShown((actual as Record<string, unknown>)[key], value, `${at}.${key}`);
  } else {
    expect(actual, at).toEqual(shown);
  }
}

/** The tool a chat request in a block offers, if any: the scripted models call it when offered. */
function offeredTool(text: string): string | undefined {
  return /"tools": \[\{"type": "function", "function": \{"name": "(\w+)"/.exec(text)?.[1];
}

describe('the command blocks of the README and docs', () => {
  const processes = new GatewayProcesses();
  const upstreams: FakeInferenceServer[] = [];
  let directory = '';
  let baseUrl = '';

  beforeAll(async () => {
    const qwen = scriptedModels.find((model) => model.id === 'Qwen/Qwen3-8B');
    if (!qwen) throw new Error('no scripted Qwen3');
    const vllm = await startFakeVllmServer({ model: qwen, toolCallParser: true });
    const ollama = await startFakeOllamaServer({ models: [qwen] });
    upstreams.push(vllm, ollama);
    directory = mkdtempSync(path.join(tmpdir(), 'interlingua-docs-'));
    const configFile = path.join(directory, 'gateway.yaml');
    // The pages' provider names. No client keys: the blocks that send $ADMIN_KEY send it to a gateway that lets anyone in.
    writeFileSync(
      configFile,
      [
        'providers:',
        '  demo: { type: scripted }',
        `  local: { type: openai-compatible, baseUrl: "${vllm.url}/v1", server: vllm }`,
        `  ollama: { type: ollama, baseUrl: "${ollama.url}" }`,
      ].join('\n'),
    );
    const port = await freePort();
    const started = processes.start(['--config', configFile, '--port', String(port)]);
    await waitForHealth(started, port);
    baseUrl = `http://127.0.0.1:${port}`;
  }, 90_000);

  afterAll(async () => {
    processes.killAll();
    await Promise.all(upstreams.map((upstream) => upstream.close()));
    if (directory) rmSync(directory, { recursive: true, force: true });
  });

  it('finds the blocks, and runs most of them here', () => {
    expect(blocks.length).toBeGreaterThan(10);
    expect(runHere.length).toBeGreaterThan(4);
  });

  it.each(runHere.map((block) => [block.where, block] as const))('%s runs as written', async (_where, block) => {
    const text = block.text.replaceAll(documentedAddress, baseUrl);
    let output: string;
    if (block.language === 'ts') {
      // ESM evaluated in the project, so its imports resolve as they would in the reader's project.
      ({ stdout: output } = await run(process.execPath, ['--input-type=module', '-e', text], { cwd: projectRoot, timeout: 30_000 }));
      const tool = /function: \{ name: '(\w+)'/.exec(block.text)?.[1];
      if (tool) expect(output).toContain(`name: '${tool}'`);
      return;
    }
    expect(text, 'a shell block here must be a curl to the gateway').toMatch(/^curl /);
    if (!curlAvailable) return;
    ({ stdout: output } = await run('bash', ['-c', text.replace(/^curl /, 'curl -sS --fail-with-body ')], {
      env: { ...process.env, ADMIN_KEY: 'any-key' },
      timeout: 30_000,
    }));
    const reply = JSON.parse(output) as Record<string, unknown>;
    const shown = shownOutput(block.text);
    if (shown !== undefined) expectShown(reply, shown);
    const tool = offeredTool(block.text);
    if (tool && reply.object === 'chat.completion') {
      const choices = reply.choices as { message: { tool_calls?: { function: { name: string } }[] } }[];
      expect(choices[0]?.message.tool_calls?.[0]?.function.name).toBe(tool);
    }
  });
});
