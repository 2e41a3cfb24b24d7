/** The agentFormats config keys: defaults, rules replacing them, ajv errors naming the path, a rule at work end to end. */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/config-error.js';
import { loadConfig } from '../../src/config/load-config.js';
import { startAgentFormatKit } from '../routes/agent-format/agent-format-kit.js';

let directory: string;

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'interlingua-agent-formats-'));
});

afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

async function load(yaml: string) {
  const path = join(directory, `config-${Math.random().toString(36).slice(2)}.yaml`);
  await writeFile(path, yaml);
  return loadConfig({ path, environment: {} });
}

describe('agentFormats in the config file', () => {
  it('defaults to the Codex rules (user-agent or originator containing codex) and openai', async () => {
    const { config } = await load('providers: {}\n');
    expect(config.agentFormats).toEqual({
      rules: [
        { header: 'user-agent', contains: 'codex', format: 'codex' },
        { header: 'originator', contains: 'codex', format: 'codex' },
      ],
      default: 'openai',
    });
  });

  it('takes rules (which replace the defaults, header names lower-cased) and a default', async () => {
    const { config } = await load(
      [
        'providers: {}',
        'agentFormats:',
        '  default: passthrough',
        '  rules:',
        '    - { header: X-Harness, contains: qwen-agent, format: qwen3 }',
      ].join('\n'),
    );
    expect(config.agentFormats).toEqual({
      rules: [{ header: 'x-harness', contains: 'qwen-agent', format: 'qwen3' }],
      default: 'passthrough',
    });
  });

  it.each([
    ['an unknown key', 'agentFormats: { rulez: [] }', 'agentFormats.rulez: is not a known setting'],
    [
      'a rule without a format',
      'agentFormats: { rules: [{ header: user-agent, contains: x }] }',
      'agentFormats.rules.0.format: is required',
    ],
    ['an empty contains', 'agentFormats: { rules: [{ header: user-agent, contains: "", format: xml }] }', 'agentFormats.rules.0.contains'],
  ])('rejects %s', async (_name, yaml, problem) => {
    const error = await load(`providers: {}\n${yaml}\n`).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems.join('\n')).toContain(problem);
  });
});

describe('a configured rule, end to end', () => {
  it('selects its format by request header, after the body field and X-Agent-Format', async () => {
    const kit = await startAgentFormatKit({ rules: [{ header: 'x-harness', contains: 'QWEN', format: 'qwen3' }] });
    try {
      const ask = async (headers: Record<string, string>) => {
        kit.native.enqueue({ type: 'chat', toolCalls: [{ name: 'get_time', arguments: {} }] });
        const response = await fetch(`${kit.gateway.baseUrl}/v1/chat/completions`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...headers },
          body: JSON.stringify({
            model: 'native/gpt-4o-mini',
            messages: [{ role: 'user', content: 'time?' }],
            tools: [{ type: 'function', function: { name: 'get_time', parameters: { type: 'object' } } }],
          }),
        });
        const body = (await response.json()) as { choices: { message: { content: string | null } }[] };
        return { header: response.headers.get('x-agent-format'), content: body.choices[0]?.message.content };
      };
      expect(await ask({ 'x-harness': 'my-qwen-harness/2' })).toMatchObject({
        header: 'qwen3; source=rule',
        content: expect.stringContaining('<|tool_call|>'),
      });
      expect((await ask({ 'x-harness': 'my-qwen-harness/2', 'x-agent-format': 'openai' })).header).toBe('openai; source=header');
      // The configured rules replace the Codex defaults.
      expect((await ask({ 'user-agent': 'codex_exec/1.0' })).header).toBe('openai; source=default');
    } finally {
      await kit.close();
    }
  });

  it('refuses to start with a rule naming an unknown format', async () => {
    await expect(startAgentFormatKit({ rules: [{ header: 'x-harness', contains: 'a', format: 'klingon' }] })).rejects.toThrow(
      /agentFormats\.rules\.0\.format: 'klingon' is not an agent format/,
    );
  });
});
