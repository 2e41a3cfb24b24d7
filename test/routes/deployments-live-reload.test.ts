/**
 * Deployments under live config (docs/live-reload.md, docs/deployments.md#reloading): targets added and
 * removed, weights and a provider's URL and key changed, an invalid file refused, a stream through a
 * deployment outliving the reload, and the cooldowns a reload starts afresh. One LiveGateway in the test's
 * process, reloaded by `POST /admin/reload` as an operator does (SIGHUP runs the same reload: test/live-reload.test.ts).
 */
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp, createConfigRedactor } from '../../src/app.js';
import { normalizeConfig } from '../../src/config/normalize-config.js';
import { compileConfigFileValidator } from '../../src/config/validate-config-file.js';
import { LiveGateway } from '../../src/live-gateway.js';
import { startFakeOpenAiUpstream, type FakeOpenAiUpstream } from '../helpers/fake-openai-upstream.js';
import { testProvider, type TestConfigFile } from '../helpers/start-gateway.js';

const validateConfigFile = compileConfigFileValidator();
const opened: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((item) => item.close()));
});

async function upstream(content: string): Promise<FakeOpenAiUpstream> {
  const started = await startFakeOpenAiUpstream();
  opened.push(started);
  started.respondWith(() => ({ type: 'chat', content }));
  return started;
}

function provider(upstreamUrl: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return testProvider('openai-compatible', `${upstreamUrl}/v1`, { toolCalling: 'native', retries: { count: 0 }, ...extra });
}

/** A gateway serving `file` (which the test edits between reloads), as src/server.ts runs one. */
async function liveGateway(initial: TestConfigFile) {
  const state = { file: initial };
  const log = { lines: [] as { msg: string; reason?: string }[] };
  const load = () => normalizeConfig(validateConfigFile(state.file), { host: '127.0.0.1', port: 0 });
  const live: LiveGateway = new LiveGateway({
    loadConfig: async () => load(),
    buildApp: (config, serverFactory) =>
      buildApp(config, { logger: pino({ level: 'silent' }), serverFactory, reload: () => live.reload(), detectServers: false }),
    log: pino({ level: 'info' }, { write: (line: string) => void log.lines.push(JSON.parse(line) as (typeof log.lines)[number]) }),
    serverOptions: {},
    redactorFor: createConfigRedactor,
  });
  await live.start(load());
  await new Promise<void>((resolve) => live.server.listen(0, '127.0.0.1', resolve));
  opened.push(live);
  const baseUrl = `http://127.0.0.1:${(live.server.address() as AddressInfo).port}`;
  return {
    log,
    /** Writes the new file and reloads it. */
    reload: async (file: TestConfigFile) => {
      state.file = file;
      return fetch(`${baseUrl}/admin/reload`, { method: 'POST' });
    },
    /** The deployments GET /v1/models lists (owned by the gateway). */
    listed: async () => {
      const { data } = (await (await fetch(`${baseUrl}/v1/models`)).json()) as { data: { id: string; owned_by: string }[] };
      return data.filter((model) => model.owned_by === 'interlingua').map((model) => model.id);
    },
    chat: (stream = false) =>
      fetch(`${baseUrl}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'coder', stream, messages: [{ role: 'user', content: 'hi' }] }),
      }),
  };
}

/** The text of a Chat Completions stream, its pieces joined. */
function streamedText(body: string): string {
  return [...body.matchAll(/"content":"([^"]*)"/g)].map((match) => match[1]).join('');
}

/** Where `count` requests went, by x-interlingua-deployment. */
async function targetsOf(gateway: Awaited<ReturnType<typeof liveGateway>>, count: number): Promise<Set<string>> {
  const seen = new Set<string>();
  for (let index = 0; index < count; index++) {
    const response = await gateway.chat();
    expect(response.status).toBe(200);
    seen.add(response.headers.get('x-interlingua-deployment') as string);
    await response.arrayBuffer();
  }
  return seen;
}

describe('deployments under live reload', () => {
  it('a target added, weights changed, a target removed: the next requests follow the new file', async () => {
    const [one, two] = [await upstream('one'), await upstream('two')];
    const providers = { one: provider(one.url), two: provider(two.url) };
    const gateway = await liveGateway({ providers, deployments: { coder: { targets: [{ model: 'one/m' }] } } });
    expect(await targetsOf(gateway, 5)).toEqual(new Set(['one/m']));
    const added = await gateway.reload({
      providers,
      deployments: { coder: { targets: [{ model: 'one/m' }, { model: 'two/m', weight: 1e9 }] } },
    });
    expect(added.status).toBe(200);
    expect(await targetsOf(gateway, 5)).toEqual(new Set(['two/m']));
    const reweighted = await gateway.reload({
      providers,
      deployments: { coder: { targets: [{ model: 'one/m', weight: 1e9 }, { model: 'two/m' }] } },
    });
    expect(reweighted.status).toBe(200);
    expect(await targetsOf(gateway, 5)).toEqual(new Set(['one/m']));
    expect((await gateway.reload({ providers, deployments: { coder: { targets: [{ model: 'two/m' }] } } })).status).toBe(200);
    expect(await targetsOf(gateway, 5)).toEqual(new Set(['two/m']));
    // /v1/models follows the file too: a deployment added is listed, one removed is not.
    expect(await gateway.listed()).toEqual(['coder']);
    expect((await gateway.reload({ providers, deployments: { helper: { targets: [{ model: 'one/m' }] } } })).status).toBe(200);
    expect(await gateway.listed()).toEqual(['helper']);
  });

  it("a target's provider moved to another URL and key: the next requests go there, with the new key", async () => {
    const [old, moved] = [await upstream('old host'), await upstream('new host')];
    const file = (url: string, apiKey: string): TestConfigFile => ({
      providers: { box: provider(url, { apiKey }) },
      deployments: { coder: { targets: [{ model: 'box/m' }] } },
    });
    const gateway = await liveGateway(file(old.url, 'sk-old-0123456789'));
    expect((await (await gateway.chat()).json()) as unknown).toMatchObject({ choices: [{ message: { content: 'old host' } }] });
    expect((await gateway.reload(file(moved.url, 'sk-new-0123456789'))).status).toBe(200);
    const response = await gateway.chat(true);
    expect(response.headers.get('x-interlingua-deployment')).toBe('box/m');
    expect(streamedText(await response.text())).toBe('new host');
    expect(moved.chatRequests()[0]?.headers.authorization).toBe('Bearer sk-new-0123456789');
    expect(old.chatRequests()).toHaveLength(1);
  });

  it('a file whose deployment names an unknown provider is refused with the path, logged, and the running deployment serves on', async () => {
    const [one] = [await upstream('one')];
    const providers = { one: provider(one.url) };
    const gateway = await liveGateway({ providers, deployments: { coder: { targets: [{ model: 'one/m' }] } } });
    const refused = await gateway.reload({ providers, deployments: { coder: { targets: [{ model: 'one/m' }, { model: 'gone/m' }] } } });
    expect(refused.status).toBe(422);
    const { error } = (await refused.json()) as { error: { code: string; message: string } };
    expect(error.code).toBe('config_invalid');
    expect(error.message).toContain('deployments.coder.targets.1.model');
    expect(gateway.log.lines).toContainEqual(
      expect.objectContaining({ msg: 'config reload refused: the running config is kept', reason: expect.stringContaining('gone') }),
    );
    expect(await targetsOf(gateway, 3)).toEqual(new Set(['one/m']));
  });

  it('a stream through a deployment runs to its end across a reload that removes its target', async () => {
    const [one, two] = [await upstream('one'), await upstream('two')];
    one.respondWith(() => ({ type: 'chat', content: 'a long answer arriving slowly', fragmentSize: 3, chunkDelayMs: 40 }));
    const providers = { one: provider(one.url), two: provider(two.url) };
    const gateway = await liveGateway({ providers, deployments: { coder: { strategy: 'least-busy', targets: [{ model: 'one/m' }] } } });
    const stream = await gateway.chat(true);
    expect(stream.headers.get('x-interlingua-deployment')).toBe('one/m');
    expect((await gateway.reload({ providers, deployments: { coder: { targets: [{ model: 'two/m' }] } } })).status).toBe(200);
    expect(await targetsOf(gateway, 2)).toEqual(new Set(['two/m']));
    const text = await stream.text();
    expect(streamedText(text)).toBe('a long answer arriving slowly');
    expect(text).toContain('[DONE]');
  });

  it('a reload starts the cooldowns afresh (docs/deployments.md#reloading): a resting target is tried again, once', async () => {
    const [broken, alive] = [await upstream('broken'), await upstream('alive')];
    broken.respondWith(() => ({ type: 'http-error', status: 503, message: 'overloaded', errorType: 'server_error' }));
    const file: TestConfigFile = {
      providers: { broken: provider(broken.url), alive: provider(alive.url) },
      deployments: { coder: { targets: [{ model: 'broken/m', weight: 1e9 }, { model: 'alive/m' }], cooldownSeconds: 60 } },
    };
    const gateway = await liveGateway(file);
    const attempts = async () => (await gateway.chat()).headers.get('x-interlingua-attempts');
    expect([await attempts(), await attempts()]).toEqual(['2', '1']);
    expect((await gateway.reload(file)).status).toBe(200);
    expect([await attempts(), await attempts()]).toEqual(['2', '1']);
    expect(broken.chatRequests()).toHaveLength(2);
  });
});
