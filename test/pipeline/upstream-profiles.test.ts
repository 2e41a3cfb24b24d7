/** The server directory: lanes per model from each profile, what requests teach it, and detection again after failures. */
import { describe, expect, it } from 'vitest';
import { gatewayError } from '../../src/core/gateway-error.js';
import { silentLogger, type Logger } from '../../src/core/logger.js';
import type { ModelReading, ServerProber, UpstreamProfile } from '../../src/core/server-profile.js';
import { UpstreamProfiles } from '../../src/pipeline/upstream-profiles.js';

/** A prober that answers the given profiles in turn (the last one again), counting its detections. */
function scriptedProber(profiles: UpstreamProfile[], perModel?: Record<string, ModelReading>) {
  const calls = { detect: 0, models: [] as string[] };
  const prober: ServerProber = {
    detect: async () => profiles[Math.min(calls.detect++, profiles.length - 1)] as UpstreamProfile,
  };
  if (perModel)
    prober.readModel = async (model) => {
      calls.models.push(model);
      return perModel[model];
    };
  return { prober, calls };
}

function recordingLog() {
  const lines: { level: string; object: Record<string, unknown>; message?: string }[] = [];
  const log: Logger = {
    ...silentLogger,
    info: (object: unknown, message?: string) => void lines.push({ level: 'info', object: object as Record<string, unknown>, message }),
    warn: (object: unknown, message?: string) => void lines.push({ level: 'warn', object: object as Record<string, unknown>, message }),
  };
  return { log, lines };
}

const upstreamDown = gatewayError('upstream_unavailable', { message: 'refused' });
const badRequest = gatewayError('upstream_http_error', { message: 'bad', status: 400, upstreamStatus: 400 });
const serverError = gatewayError('upstream_http_error', { message: 'boom', status: 502, upstreamStatus: 503 });

describe('UpstreamProfiles', () => {
  it('answers nothing before detection, then the server’s lane per model', async () => {
    const { prober } = scriptedProber([{ server: 'vllm', found: 'detected', version: '0.11.2', toolParsing: 'until-refused' }]);
    const servers = new UpstreamProfiles([{ name: 'local', prober }], { log: silentLogger });
    expect(servers.autoToolCalling('local', 'Qwen/Qwen3-8B')).toBeUndefined();
    expect(servers.report('local')).toEqual({ found: 'pending' });
    await servers.start().settled;
    expect(servers.server('local')).toBe('vllm');
    expect(servers.report('local')).toEqual({ server: 'vllm', version: '0.11.2', found: 'detected' });
    expect(servers.autoToolCalling('local', 'Qwen/Qwen3-8B')).toBe('native');
    expect(servers.autoToolCalling('elsewhere', 'Qwen/Qwen3-8B')).toBeUndefined();
  });

  it('remembers a model whose native tools were refused as prompted, and only that model', async () => {
    const { prober } = scriptedProber([{ server: 'vllm', found: 'detected', toolParsing: 'until-refused' }]);
    const servers = new UpstreamProfiles([{ name: 'local', prober }], { log: silentLogger });
    await servers.start().settled;
    servers.rememberNativeRefused('local', 'Qwen/Qwen3-8B');
    expect(servers.autoToolCalling('local', 'Qwen/Qwen3-8B')).toBe('prompted');
    expect(servers.autoToolCalling('local', 'openai/gpt-oss-20b')).toBe('native');
  });

  it.each([
    ['every-model', 'native'],
    ['no-model', 'prompted'],
    ['unknown', undefined],
  ] as const)('gives a %s server the same lane for every model', async (toolParsing, lane) => {
    const { prober } = scriptedProber([{ server: 'sglang', found: 'detected', toolParsing }]);
    const servers = new UpstreamProfiles([{ name: 'local', prober }], { log: silentLogger });
    await servers.start().settled;
    expect(servers.autoToolCalling('local', 'any-model')).toBe(lane);
  });

  it('reads per-model servers model by model, asking about an unlisted model once, in the background', async () => {
    const models = new Map([
      ['qwen3:8b', true],
      ['gemma3:270m', false],
    ]);
    const { prober, calls } = scriptedProber([{ server: 'ollama', found: 'configured', toolParsing: 'per-model', models }], {
      'llama3.1:8b': { parsesToolCalls: true },
    });
    const servers = new UpstreamProfiles([{ name: 'home', prober, configured: 'ollama' }], { log: silentLogger });
    expect(servers.server('home')).toBe('ollama');
    await servers.start().settled;
    expect(servers.autoToolCalling('home', 'qwen3:8b')).toBe('native');
    expect(servers.autoToolCalling('home', 'gemma3:270m')).toBe('prompted');
    // Not known yet: the families table answers this request; the next one has the server's answer.
    expect(servers.autoToolCalling('home', 'llama3.1:8b')).toBeUndefined();
    expect(servers.autoToolCalling('home', 'llama3.1:8b')).toBeUndefined();
    await new Promise((resolve) => setImmediate(resolve));
    expect(servers.autoToolCalling('home', 'llama3.1:8b')).toBe('native');
    expect(calls.models).toEqual(['llama3.1:8b']);
  });

  it('says what the server reports each model to be: listed, one model for every name, or asked about on its own', async () => {
    const listed = scriptedProber([
      { server: 'vllm', found: 'detected', toolParsing: 'until-refused', identities: new Map([['my-model', ['Qwen/Qwen3-8B']]]) },
    ]);
    const oneModel = scriptedProber([
      { server: 'llama.cpp', found: 'detected', toolParsing: 'until-refused', servedModel: ['/models/Qwen3-8B-Q4_K_M.gguf'] },
    ]);
    const asked = scriptedProber([{ server: 'ollama', found: 'configured', toolParsing: 'per-model', models: new Map() }], {
      'my-model:latest': { parsesToolCalls: false, identity: ['Qwen3', 'qwen3'] },
    });
    const servers = new UpstreamProfiles(
      [
        { name: 'vllm', prober: listed.prober },
        { name: 'llama', prober: oneModel.prober },
        { name: 'ollama', prober: asked.prober, configured: 'ollama' },
      ],
      { log: silentLogger },
    );
    expect(servers.modelIdentity('vllm', 'my-model')).toBeUndefined();
    await servers.start().settled;
    expect(servers.modelIdentity('vllm', 'my-model')).toEqual(['Qwen/Qwen3-8B']);
    expect(servers.modelIdentity('vllm', 'other')).toBeUndefined();
    expect(servers.modelIdentity('llama', 'any-name')).toEqual(['/models/Qwen3-8B-Q4_K_M.gguf']);
    expect(servers.modelIdentity('ollama', 'my-model:latest')).toBeUndefined();
    await new Promise((resolve) => setImmediate(resolve));
    expect(servers.modelIdentity('ollama', 'my-model:latest')).toEqual(['Qwen3', 'qwen3']);
    expect(servers.autoToolCalling('ollama', 'my-model:latest')).toBe('prompted');
    expect(asked.calls.models).toEqual(['my-model:latest']);
  });

  it('asks again after a connection failure or a 5xx, at most once per interval, and never after a 4xx', async () => {
    let now = 0;
    const { prober, calls } = scriptedProber([
      { server: 'llama.cpp', found: 'detected', version: 'b1', toolParsing: 'until-refused' },
      { server: 'vllm', found: 'detected', version: '0.11.2', toolParsing: 'until-refused' },
    ]);
    const { log, lines } = recordingLog();
    const servers = new UpstreamProfiles([{ name: 'local', prober }], { log, redetectAfterMs: 1_000, now: () => now });
    servers.noticeFailure('local', upstreamDown);
    expect(calls.detect).toBe(0);
    await servers.start().settled;
    servers.rememberNativeRefused('local', 'm');
    now = 500;
    servers.noticeFailure('local', upstreamDown);
    expect(calls.detect).toBe(1);
    now = 2_000;
    servers.noticeFailure('local', badRequest);
    expect(calls.detect).toBe(1);
    servers.noticeFailure('local', serverError);
    expect(calls.detect).toBe(2);
    await new Promise((resolve) => setImmediate(resolve));
    expect(servers.server('local')).toBe('vllm');
    // A server that came back may be another one: what requests taught is forgotten.
    expect(servers.autoToolCalling('local', 'm')).toBe('native');
    expect(lines.map((line) => [line.message, line.object.server])).toEqual([
      ['upstream server', 'llama.cpp'],
      ['upstream server detected again after a failure', 'vllm'],
    ]);
  });

  it('keeps the known kind while the server is down, and logs the startup warning of a server that strips', async () => {
    const { prober } = scriptedProber([
      { server: 'ollama', found: 'configured', toolParsing: 'per-model', strippingWarning: 'Ollama removes special tokens. Fix: …' },
      { server: 'ollama', found: 'unreachable', toolParsing: 'per-model' },
    ]);
    const { log, lines } = recordingLog();
    let now = 0;
    const servers = new UpstreamProfiles([{ name: 'home', prober, configured: 'ollama' }], {
      log,
      redetectAfterMs: 60_000,
      now: () => now,
    });
    await servers.start().settled;
    now = 60_000;
    expect(lines.filter((line) => line.level === 'warn').map((line) => line.message)).toEqual(['Ollama removes special tokens. Fix: …']);
    servers.noticeFailure('home', upstreamDown);
    expect(servers.report('home')).toEqual({ server: 'ollama', found: 'configured' });
    await new Promise((resolve) => setImmediate(resolve));
    expect(servers.report('home')).toEqual({ server: 'ollama', found: 'unreachable' });
    expect(servers.autoToolCalling('home', 'qwen3:8b')).toBeUndefined();
    servers.close();
  });

  it('asks a server that did not answer again by itself, without waiting for a request to fail', async () => {
    const { prober, calls } = scriptedProber([
      { found: 'unreachable', toolParsing: 'unknown' },
      { server: 'sglang', found: 'detected', toolParsing: 'every-model' },
    ]);
    const servers = new UpstreamProfiles([{ name: 'local', prober }], { log: silentLogger, redetectAfterMs: 5 });
    await servers.start().settled;
    expect(servers.report('local')).toEqual({ found: 'unreachable' });
    for (let wait = 0; wait < 50 && servers.server('local') === undefined; wait++) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(servers.report('local')).toEqual({ server: 'sglang', found: 'detected' });
    expect(calls.detect).toBe(2);
    servers.close();
  });
});
