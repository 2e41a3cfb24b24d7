/** Loading the config: YAML and JSON files, ${ENV} interpolation, ajv errors naming the bad path, defaults, discovery. */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { providerDiscovery } from '../../providers/index.js';
import { ConfigError } from '../../src/config/config-error.js';
import { loadConfig } from '../../src/config/load-config.js';
import { defaultServer, defaultTimeouts, defaultUpstreamLimits } from '../../src/config/normalize-config.js';

let directory: string;

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'interlingua-config-'));
});

afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

let fileCounter = 0;
async function configFile(extension: 'yaml' | 'json', text: string): Promise<string> {
  const path = join(directory, `config-${++fileCounter}.${extension}`);
  await writeFile(path, text);
  return path;
}

/** The ConfigError a load throws, for asserting on its message. */
async function configError(promise: Promise<unknown>): Promise<ConfigError> {
  const outcome = await promise.then(
    () => undefined,
    (error: unknown) => error,
  );
  if (!(outcome instanceof ConfigError)) throw new Error(`expected a ConfigError, got ${String(outcome)}`);
  return outcome;
}

const noOllama = vi.fn(async () => false);

describe('config files', () => {
  it('reads YAML with ${VAR} and ${VAR:-default}, filling defaults', async () => {
    const path = await configFile(
      'yaml',
      [
        'server:',
        '  host: 0.0.0.0',
        '  port: ${GATEWAY_TEST_PORT}',
        '  apiKeys: ["${CLIENT_KEY}"]',
        'providers:',
        '  local:',
        '    type: openai-compatible',
        '    baseUrl: http://${LOCAL_HOST:-127.0.0.1}:8000/v1/',
        '    apiKey: ${LOCAL_KEY}',
        '    toolCalling: prompted',
        '    headers: { x-team: "${TEAM:-core}" }',
        '    timeouts: { headersMs: 1234 }',
        '    limits: { maxEventBytes: 2097152 }',
        '    models:',
        '      Qwen/Qwen3-8B: { family: hermes, toolCalling: native }',
      ].join('\n'),
    );
    const { config, notes } = await loadConfig({
      path,
      environment: { GATEWAY_TEST_PORT: '9999', CLIENT_KEY: 'client-secret', LOCAL_KEY: 'sk-local' },
      discovery: providerDiscovery(noOllama),
    });
    // The file's values over the defaults (bodyLimitBytes 32 MiB, logLevel info, the time limits).
    expect(config.server).toEqual({
      ...defaultServer,
      host: '0.0.0.0',
      port: 9999,
      apiKeys: ['client-secret'],
      clientKeys: [{ key: 'client-secret', name: 'key-1', fullAccess: true }],
    });
    expect(config.server.bodyLimitBytes).toBe(32 * 1024 * 1024);
    expect(config.providers.local).toEqual({
      name: 'local',
      type: 'openai-compatible',
      baseUrl: 'http://127.0.0.1:8000/v1',
      apiKey: 'sk-local',
      headers: { 'x-team': 'core' },
      timeouts: { ...defaultTimeouts, headersMs: 1234 },
      limits: { ...defaultUpstreamLimits, maxEventBytes: 2097152 },
      toolCalling: 'prompted',
      models: { 'Qwen/Qwen3-8B': { family: 'hermes', toolCalling: 'native' } },
    });
    expect(notes).toEqual([`config from ${path}`]);
    expect(noOllama).not.toHaveBeenCalled();
  });

  it('reads JSON the same way', async () => {
    const path = await configFile(
      'json',
      JSON.stringify({
        providers: {
          claude: { type: 'anthropic', baseUrl: 'https://api.anthropic.com', apiKey: '${ANTHROPIC_TEST_KEY}', defaultMaxTokens: 2048 },
          home: { type: 'ollama', baseUrl: 'http://127.0.0.1:11434' },
        },
      }),
    );
    const { config } = await loadConfig({ path, environment: { ANTHROPIC_TEST_KEY: 'sk-ant' } });
    expect(config.providers.claude).toMatchObject({ type: 'anthropic', apiKey: 'sk-ant', defaultMaxTokens: 2048, toolCalling: 'auto' });
    expect(config.providers.home).toMatchObject({ type: 'ollama', headers: {}, models: {} });
    expect(config.providers.home).not.toHaveProperty('apiKey');
    expect(config.server).toMatchObject({ host: '127.0.0.1', port: 8080, apiKeys: [] });
  });

  it('lets --port/--host overrides win over the file', async () => {
    const path = await configFile('yaml', 'server: { host: 0.0.0.0, port: 1111 }\nproviders: {}\n');
    const { config } = await loadConfig({ path, environment: {}, overrides: { port: 2222, host: '127.0.0.2' } });
    expect(config.server).toMatchObject({ host: '127.0.0.2', port: 2222 });
  });

  it("finds a Vertex provider's keyFile next to the config that names it, and keeps an absolute one", async () => {
    // Both must exist: a key file that cannot be read stops the load (cloud-provider-settings.test.ts).
    await mkdir(join(directory, 'keys'), { recursive: true });
    await writeFile(join(directory, 'keys/service-account.json'), '{"type": "service_account"}');
    const pinned = join(await mkdtemp(join(tmpdir(), 'interlingua-pinned-')), 'sa.json');
    await writeFile(pinned, '{"type": "service_account"}');
    const path = await configFile(
      'yaml',
      [
        'providers:',
        '  vertex: { type: vertex, project: p, location: global, keyFile: keys/service-account.json }',
        `  pinned: { type: vertex, project: p, location: global, keyFile: ${pinned} }`,
      ].join('\n'),
    );
    const { config } = await loadConfig({ path, environment: {} });
    expect(config.providers.vertex?.vertex?.keyFile).toBe(join(directory, 'keys/service-account.json'));
    expect(config.providers.pinned?.vertex?.keyFile).toBe(pinned);
    await rm(dirname(pinned), { recursive: true, force: true });
  });

  it('treats an empty file as an empty config', async () => {
    const path = await configFile('yaml', '');
    const { config } = await loadConfig({ path, environment: {} });
    expect(config.providers).toEqual({});
  });

  it('uses an empty ${VAR:-} default as an empty value (so an optional key is simply absent)', async () => {
    const path = await configFile(
      'yaml',
      'providers:\n  local: { type: openai-compatible, baseUrl: "http://127.0.0.1:1/v1", apiKey: "${UNSET_KEY:-}" }\n',
    );
    const { config } = await loadConfig({ path, environment: {} });
    expect(config.providers.local).not.toHaveProperty('apiKey');
  });
});

describe('config errors name the bad path', () => {
  it.each([
    [
      'a bad provider type',
      'providers:\n  local: { type: vllm, baseUrl: "http://127.0.0.1:8000/v1" }\n',
      'providers.local.type: must be one of openai, openai-compatible, anthropic, ollama, gemini, azure-openai, vertex, bedrock, scripted',
    ],
    ['a missing baseUrl', 'providers:\n  local: { type: ollama }\n', 'providers.local.baseUrl: is required'],
    [
      'a baseUrl that is not a URL',
      'providers:\n  local: { type: ollama, baseUrl: "127.0.0.1:11434" }\n',
      'providers.local.baseUrl: must be an http(s) URL',
    ],
    [
      'an unknown setting',
      'providers:\n  local: { type: ollama, baseUrl: "http://h", tools: true }\n',
      'providers.local.tools: is not a known setting',
    ],
    ['an unknown server setting', 'server: { prot: 80 }\n', 'server.prot: is not a known setting'],
    [
      'a bad toolCalling',
      'providers:\n  local: { type: ollama, baseUrl: "http://h", toolCalling: always }\n',
      'providers.local.toolCalling: must be one of auto, native, prompted',
    ],
    [
      'a bad per-model toolCalling',
      'providers:\n  local: { type: ollama, baseUrl: "http://h", models: { "m:1": { toolCalling: maybe } } }\n',
      'providers.local.models.m:1.toolCalling: must be one of auto, native, prompted',
    ],
    ['a port out of range', 'server: { port: 70000 }\n', 'server.port: must be <= 65535'],
    ['a port that is not a number', 'server: { port: eighty }\n', 'server.port: must be integer'],
    [
      'a provider name with a slash',
      'providers:\n  "a/b": { type: ollama, baseUrl: "http://h" }\n',
      "providers.a/b: provider names use letters, digits, '.', '_' and '-' (no '/')",
    ],
    [
      'a negative timeout',
      'providers:\n  local: { type: ollama, baseUrl: "http://h", timeouts: { headersMs: -1 } }\n',
      'providers.local.timeouts.headersMs: must be >= 1',
    ],
  ])('%s', async (_title, yaml, problem) => {
    const path = await configFile('yaml', yaml);
    const error = await configError(loadConfig({ path, environment: {} }));
    expect(error.problems).toContain(problem);
    expect(error.message).toContain(problem);
  });

  it('reports every problem at once', async () => {
    const path = await configFile('yaml', 'providers:\n  a: { type: nope, baseUrl: "http://h" }\n  b: { type: ollama }\n');
    const error = await configError(loadConfig({ path, environment: {} }));
    expect(error.problems).toEqual(
      expect.arrayContaining([
        'providers.a.type: must be one of openai, openai-compatible, anthropic, ollama, gemini, azure-openai, vertex, bedrock, scripted',
        'providers.b.baseUrl: is required',
      ]),
    );
  });

  it('names a missing environment variable and where it is used', async () => {
    const path = await configFile('yaml', 'providers:\n  local: { type: openai, baseUrl: "http://h/v1", apiKey: "${MISSING_TEST_KEY}" }\n');
    const error = await configError(loadConfig({ path, environment: {} }));
    expect(error.message).toContain('providers.local.apiKey: environment variable MISSING_TEST_KEY is not set');
  });

  it('names a file that cannot be read', async () => {
    const path = join(directory, 'does-not-exist.yaml');
    const error = await configError(loadConfig({ path, environment: {} }));
    expect(error.message).toContain(`cannot read config file ${path}`);
  });

  it('names a file that cannot be parsed', async () => {
    const path = await configFile('yaml', 'providers:\n  local: [unclosed\n');
    const error = await configError(loadConfig({ path, environment: {} }));
    expect(error.message).toContain(`cannot parse config file ${path}`);
  });

  it('says where a file cannot be parsed without quoting its lines, which may hold a key', async () => {
    const path = await configFile('yaml', 'server:\n  apiKeys:\n    - key: sk-inline-secret-1234 name: team\nproviders: {}\n');
    const error = await configError(loadConfig({ path, environment: {} }));
    expect(error.message).toContain(`cannot parse config file ${path}`);
    expect(error.message).toContain('at line 3, column');
    expect(error.message).not.toContain('sk-inline-secret-1234');
  });

  it('rejects a file whose top level is not a mapping', async () => {
    const path = await configFile('yaml', '- just\n- a list\n');
    await configError(loadConfig({ path, environment: {} }));
  });
});

describe('without a config file', () => {
  it('builds providers from the environment and says what it found', async () => {
    const probe = vi.fn(async () => false);
    const { config, notes } = await loadConfig({
      environment: { OPENAI_API_KEY: 'sk-openai', ANTHROPIC_API_KEY: 'sk-ant', OLLAMA_HOST: '0.0.0.0:11500' },
      discovery: providerDiscovery(probe),
    });
    expect(Object.keys(config.providers)).toEqual(['openai', 'anthropic', 'ollama']);
    expect(config.providers.openai).toMatchObject({ type: 'openai', baseUrl: 'https://api.openai.com/v1', apiKey: 'sk-openai' });
    expect(config.providers.anthropic).toMatchObject({ type: 'anthropic', baseUrl: 'https://api.anthropic.com', apiKey: 'sk-ant' });
    expect(config.providers.ollama).toMatchObject({ type: 'ollama', baseUrl: 'http://127.0.0.1:11500' });
    expect(probe).not.toHaveBeenCalled();
    expect(notes[0]).toBe('no config file: using the environment');
    expect(notes.join('\n')).toMatch(/OPENAI_API_KEY[\s\S]*ANTHROPIC_API_KEY[\s\S]*OLLAMA_HOST/);
    expect(notes.join('\n')).not.toContain('sk-openai');
  });

  it('starts with only the demo provider and no keys when nothing is found, saying how to add real ones', async () => {
    const { config, notes } = await loadConfig({
      environment: {},
      discovery: providerDiscovery(async () => false),
      overrides: { port: 0 },
    });
    expect(Object.keys(config.providers)).toEqual(['demo']);
    expect(config.providers.demo).toMatchObject({ type: 'scripted', baseUrl: '' });
    expect(config.server.apiKeys).toEqual([]);
    expect(config.server.port).toBe(0);
    expect(notes.join('\n')).toContain('no providers found');
  });

  it('uses a local Ollama when the probe finds one', async () => {
    const probe = vi.fn(async () => true);
    const { config } = await loadConfig({ environment: {}, discovery: providerDiscovery(probe) });
    expect(probe).toHaveBeenCalledWith('http://127.0.0.1:11434');
    expect(config.providers.ollama).toMatchObject({ type: 'ollama', baseUrl: 'http://127.0.0.1:11434' });
  });
});
