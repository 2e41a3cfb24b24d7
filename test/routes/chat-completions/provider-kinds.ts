/**
 * One scripting surface over the five fake upstreams (OpenAI SSE, OpenAI-compatible SSE, Anthropic SSE,
 * Ollama NDJSON, Gemini SSE), so end-to-end tests can run the same scenario through every provider kind;
 * and over the cloud kinds in front of them (Vertex AI's Gemini and Claude, Azure OpenAI), whose fakes
 * relay to the same fakes on the cloud's own paths and authentication.
 */
import type OpenAI from 'openai';
import { afterAll, beforeAll } from 'vitest';
import { startFakeAnthropicUpstream, type FakeAnthropicBlock, type FakeAnthropicUpstream } from '../../helpers/fake-anthropic-upstream.js';
import { startFakeAzureOpenAi } from '../../helpers/fake-azure-openai-server.js';
import { startFakeGeminiUpstream, type FakeGeminiUpstream } from '../../helpers/fake-gemini-upstream.js';
import { startFakeOllamaUpstream, type FakeOllamaUpstream } from '../../helpers/fake-ollama-upstream.js';
import { startFakeOpenAiUpstream, type FakeOpenAiUpstream } from '../../helpers/fake-openai-upstream.js';
import { sleep, type RecordedRequest } from '../../helpers/loopback-server.js';
import { startFakeVertex, type FakeVertex } from '../../helpers/fake-vertex-server.js';
import { startGateway, testProvider, type StartedGateway } from '../../helpers/start-gateway.js';

/** `arguments` as a string is sent as that JSON text, verbatim (malformed on purpose, say). */
export type ScriptedCall = { id: string; name: string; arguments: Record<string, unknown> | string };

export type ExpectedUsage = { prompt_tokens: number; completion_tokens: number; total_tokens: number };

export type ProviderKind = {
  /** The upstream's wire protocol (a cloud kind speaks the protocol of the models it serves). */
  type: 'openai' | 'openai-compatible' | 'anthropic' | 'ollama' | 'gemini';
  /** The configured provider name, i.e. the model prefix. */
  name: string;
  /** The upstream model id. */
  model: string;
  start(): Promise<void>;
  close(): Promise<void>;
  /** The provider's config entry, pointing at the started fake (extra settings merged in). */
  providerEntry(extra?: Record<string, unknown>): Record<string, unknown>;
  /** Parallel tool calls, their arguments split into fragments of `fragmentSize` characters where the protocol streams them. */
  scriptToolCalls(calls: ScriptedCall[], fragmentSize: number): void;
  /** Text sent exactly as these deltas. */
  scriptText(pieces: string[]): void;
  scriptReasoning(reasoning: string, text: string): void;
  /** The usage every scripted reply reports, in OpenAI's shape. */
  usage: ExpectedUsage;
  /** The chat requests the fake received. */
  chatRequests(): RecordedRequest[];
  /** An HTTP error in the protocol's own envelope. */
  scriptHttpError(status: number, message: string, headers?: Record<string, string>): void;
  /** A text reply whose headers come only after `delayMs`. */
  scriptSlowHeaders(delayMs: number): void;
  /** Some text, then the protocol's in-stream error carrying `message`. */
  scriptMidStreamError(message: string): void;
  /** Some text, then the socket is destroyed. */
  scriptCutStream(): void;
  /** Some text, then nothing until the client goes away. */
  scriptHeldStream(): void;
};

/** Text long enough to arrive in several chunks before a scripted failure. */
export const preambleText = 'Working on it';

const usageCounts = { input: 21, output: 8 };
const expectedUsage: ExpectedUsage = { prompt_tokens: 21, completion_tokens: 8, total_tokens: 29 };

/** A started fake as a kind reaches it: directly, or through a cloud's fake in front of it. */
type Hosted<Fake> = {
  fake: Fake;
  /** The provider's config entry; `extra` holds the kind's own settings and the test's. */
  providerEntry(extra: Record<string, unknown>): Record<string, unknown>;
  /** The chat requests as they reached the host (a cloud's paths, authentication and body). */
  chatRequests(): RecordedRequest[];
  close(): Promise<void>;
};

/** Where a kind's fake runs. */
type Host<Fake> = () => Promise<Hosted<Fake>>;

/** The started fake of a kind, or a clear failure when a test scripts it too early. */
function hosting<Fake>(name: string, host: Host<Fake>) {
  let hosted: Hosted<Fake> | undefined;
  const started = () => {
    if (!hosted) throw new Error(`${name}: fake upstream not started`);
    return hosted;
  };
  return {
    start: async () => {
      hosted = await host();
    },
    close: async () => hosted?.close(),
    started,
    fake: () => started().fake,
  };
}

/** A kind's own API: its fake, the provider pointed straight at it (under `path`) with a key. */
function ownApi<Fake extends { url: string; close(): Promise<void> }>(
  type: string,
  start: () => Promise<Fake>,
  requests: (fake: Fake) => RecordedRequest[],
  path = '',
): Host<Fake> {
  return async () => {
    const fake = await start();
    return {
      fake,
      providerEntry: (extra) => testProvider(type, `${fake.url}${path}`, { apiKey: 'upstream-key', ...extra }),
      chatRequests: () => requests(fake),
      close: () => fake.close(),
    };
  };
}

/** Azure OpenAI in front of the fake OpenAI API: `model` names a deployment of that name. */
function azureOpenAi(deployment: string): Host<FakeOpenAiUpstream> {
  return async () => {
    const azure = await startFakeAzureOpenAi({ deployments: [deployment], apiKey: 'azure-key' });
    return {
      fake: azure.openai,
      providerEntry: (extra) => testProvider('azure-openai', azure.url, { apiKey: 'azure-key', ...extra }),
      chatRequests: () => azure.requests.filter((request) => request.path === '/openai/v1/chat/completions'),
      close: () => azure.close(),
    };
  };
}

/** Vertex AI in front of the fake Gemini or Anthropic API, one publisher's model calls recorded. */
function vertexAi<Fake>(publisher: 'google' | 'anthropic', pick: (vertex: FakeVertex) => Fake): Host<Fake> {
  return async () => {
    const vertex = await startFakeVertex({ project: 'kinds', location: 'us-east5', bearerTokens: () => ['ya29.kinds'] });
    return {
      fake: pick(vertex),
      providerEntry: (extra) =>
        testProvider('vertex', vertex.url, { project: 'kinds', location: 'us-east5', accessToken: 'ya29.kinds', ...extra }),
      chatRequests: () => vertex.requests.filter((request) => request.path.includes(`/publishers/${publisher}/`)),
      close: () => vertex.close(),
    };
  };
}

function openAiKind(
  type: 'openai' | 'openai-compatible',
  name: string,
  host: Host<FakeOpenAiUpstream> = ownApi(type, startFakeOpenAiUpstream, (fake) => fake.chatRequests(), '/v1'),
): ProviderKind {
  const { start, close, started, fake } = hosting(name, host);
  const usage = { prompt_tokens: usageCounts.input, completion_tokens: usageCounts.output };
  return {
    type,
    name,
    model: type === 'openai' ? 'gpt-4.1-mini' : 'Qwen/Qwen3-8B',
    start,
    close,
    providerEntry: (extra = {}) => started().providerEntry({ toolCalling: 'native', ...extra }),
    scriptToolCalls: (calls, fragmentSize) => fake().enqueue({ type: 'chat', toolCalls: calls, fragmentSize, usage }),
    scriptText: (pieces) => fake().enqueue({ type: 'chat', content: pieces, usage }),
    scriptReasoning: (reasoning, text) => fake().enqueue({ type: 'chat', reasoning, content: text, usage }),
    usage: expectedUsage,
    chatRequests: () => started().chatRequests(),
    scriptHttpError: (status, message, headers) => fake().enqueue({ type: 'http-error', status, message, ...(headers ? { headers } : {}) }),
    scriptSlowHeaders: (delayMs) => fake().enqueue({ type: 'chat', content: 'late', headersDelayMs: delayMs }),
    scriptMidStreamError: (message) => fake().enqueue({ type: 'chat', content: preambleText, streamError: { afterChunks: 3, message } }),
    scriptCutStream: () => fake().enqueue({ type: 'chat', content: preambleText, cutAfterChunks: 3 }),
    scriptHeldStream: () => fake().enqueue({ type: 'chat', content: preambleText, holdAfterChunks: 3 }),
  };
}

function anthropicKind(
  name = 'claude',
  host: Host<FakeAnthropicUpstream> = ownApi('anthropic', startFakeAnthropicUpstream, (fake) => fake.messageRequests()),
): ProviderKind {
  const { start, close, started, fake } = hosting(name, host);
  const usage = { input_tokens: usageCounts.input, output_tokens: usageCounts.output };
  const message = (content: FakeAnthropicBlock[], fragmentSize = 3) => fake().enqueue({ type: 'message', content, usage, fragmentSize });
  return {
    type: 'anthropic',
    name,
    model: 'claude-sonnet-4-5',
    start,
    close,
    providerEntry: (extra = {}) => started().providerEntry({ defaultMaxTokens: 1024, ...extra }),
    scriptToolCalls: (calls, fragmentSize) =>
      message(
        calls.map((call) => ({ type: 'tool_use', id: call.id, name: call.name, input: call.arguments })),
        fragmentSize,
      ),
    // The fake splits text into fixed-size pieces; one block per piece keeps each delta exactly as given.
    scriptText: (pieces) =>
      message(
        pieces.map((piece) => ({ type: 'text', text: piece })),
        1_000,
      ),
    scriptReasoning: (reasoning, text) =>
      message([
        { type: 'thinking', thinking: reasoning, signature: 'sig-fake' },
        { type: 'text', text },
      ]),
    usage: expectedUsage,
    chatRequests: () => started().chatRequests(),
    scriptHttpError: (status, message, headers) => fake().enqueue({ type: 'http-error', status, message, ...(headers ? { headers } : {}) }),
    scriptSlowHeaders: (delayMs) => fake().enqueue({ type: 'message', content: [{ type: 'text', text: 'late' }], delayMs }),
    // message_start, ping, content_block_start, then two text deltas: text has begun before the failure.
    scriptMidStreamError: (message) =>
      fake().enqueue({
        type: 'message',
        content: [{ type: 'text', text: preambleText }],
        interruption: { type: 'error-event', afterEvents: 5, errorType: 'overloaded_error', message },
      }),
    scriptCutStream: () =>
      fake().enqueue({
        type: 'message',
        content: [{ type: 'text', text: preambleText }],
        interruption: { type: 'destroy', afterEvents: 5 },
      }),
    scriptHeldStream: () =>
      fake().enqueue({ type: 'message', content: [{ type: 'text', text: preambleText }], interruption: { type: 'hold', afterEvents: 5 } }),
  };
}

function ollamaKind(): ProviderKind {
  let upstream: FakeOllamaUpstream | undefined;
  const fake = () => {
    if (!upstream) throw new Error('ollama: fake upstream not started');
    return upstream;
  };
  const counts = { promptEvalCount: usageCounts.input, evalCount: usageCounts.output };
  return {
    type: 'ollama',
    name: 'home',
    model: 'llama3.1:8b',
    start: async () => {
      upstream = await startFakeOllamaUpstream();
    },
    close: async () => upstream?.close(),
    providerEntry: (extra = {}) => testProvider('ollama', fake().url, { toolCalling: 'native', ...extra }),
    // Ollama sends each call whole (no argument fragments on this wire).
    scriptToolCalls: (calls) => fake().enqueue({ type: 'chat', toolCalls: calls, ...counts }),
    // One character per chunk, so every space and newline is a whitespace-only delta of its own.
    scriptText: (pieces) => fake().enqueue({ type: 'chat', content: pieces.join(''), pieceSize: 1, ...counts }),
    scriptReasoning: (reasoning, text) => fake().enqueue({ type: 'chat', thinking: reasoning, content: text, ...counts }),
    usage: expectedUsage,
    chatRequests: () => fake().requests.filter((request) => request.path === '/api/chat'),
    scriptHttpError: (status, message, headers) => fake().enqueue({ type: 'error', status, message, ...(headers ? { headers } : {}) }),
    scriptSlowHeaders: (delayMs) => fake().enqueue({ type: 'chat', content: 'late', headersDelayMs: delayMs }),
    scriptMidStreamError: (message) => fake().enqueue({ type: 'chat', content: preambleText, streamError: { afterChunks: 3, message } }),
    scriptCutStream: () => fake().enqueue({ type: 'chat', content: preambleText, destroyAfterChunks: 3 }),
    scriptHeldStream: () => fake().enqueue({ type: 'chat', content: preambleText, holdOpen: true }),
  };
}

function geminiKind(
  name = 'google',
  host: Host<FakeGeminiUpstream> = ownApi('gemini', startFakeGeminiUpstream, (fake) => fake.generateRequests()),
): ProviderKind {
  const { start, close, started, fake } = hosting(name, host);
  const usage = { promptTokenCount: usageCounts.input, candidatesTokenCount: usageCounts.output };
  const preamble = [[{ text: 'Work' }], [{ text: 'ing ' }], [{ text: 'on ' }], [{ text: 'it' }]];
  return {
    type: 'gemini',
    name,
    model: 'gemini-2.5-flash',
    start,
    close,
    providerEntry: (extra = {}) => started().providerEntry(extra),
    // Gemini sends each call whole, one part per call (signatures: test/providers/gemini).
    scriptToolCalls: (calls) =>
      fake().enqueue({
        type: 'generate',
        chunks: [
          calls.map((call) => ({
            functionCall: {
              id: call.id,
              name: call.name,
              args: typeof call.arguments === 'string' ? { raw: call.arguments } : call.arguments,
            },
          })),
        ],
        usage,
      }),
    scriptText: (pieces) => fake().enqueue({ type: 'generate', chunks: pieces.map((piece) => [{ text: piece }]), usage }),
    scriptReasoning: (reasoning, text) =>
      fake().enqueue({ type: 'generate', chunks: [[{ text: reasoning, thought: true }], [{ text }]], usage }),
    usage: expectedUsage,
    chatRequests: () => started().chatRequests(),
    scriptHttpError: (status, message, headers) => fake().enqueue({ type: 'http-error', status, message, ...(headers ? { headers } : {}) }),
    scriptSlowHeaders: (delayMs) => fake().enqueue({ type: 'generate', chunks: [[{ text: 'late' }]], headersDelayMs: delayMs }),
    scriptMidStreamError: (message) =>
      fake().enqueue({
        type: 'generate',
        chunks: [...preamble, [{ text: '!' }]],
        interruption: { type: 'error-event', afterChunks: 3, message },
      }),
    scriptCutStream: () =>
      fake().enqueue({ type: 'generate', chunks: [...preamble, [{ text: '!' }]], interruption: { type: 'destroy', afterChunks: 3 } }),
    scriptHeldStream: () =>
      fake().enqueue({ type: 'generate', chunks: [...preamble, [{ text: '!' }]], interruption: { type: 'hold', afterChunks: 3 } }),
  };
}

/** Resolves once the kind's latest chat request was abandoned by the gateway before its response ended. */
export async function waitForUpstreamAbort(kind: ProviderKind, timeoutMs = 3_000): Promise<RecordedRequest> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const request = kind.chatRequests().at(-1);
    if (request?.aborted) return request;
    if (Date.now() > deadline) throw new Error(`${kind.type}: the upstream request was not aborted within ${timeoutMs} ms`);
    await sleep(10);
  }
}

/** A fresh set of kinds (each test file starts its own fakes). */
export function providerKinds(): ProviderKind[] {
  return [
    openAiKind('openai', 'oai'),
    openAiKind('openai-compatible', 'local'),
    anthropicKind(),
    ollamaKind(),
    geminiKind(),
    openAiKind('openai', 'azure', azureOpenAi('gpt-4.1-mini')),
    geminiKind(
      'vertex-gemini',
      vertexAi('google', (vertex) => vertex.gemini),
    ),
    anthropicKind(
      'vertex-claude',
      vertexAi('anthropic', (vertex) => vertex.anthropic),
    ),
  ];
}

/**
 * For a test file: every kind's fake started and one gateway in front of them all (beforeAll), all
 * closed afterAll. The accessors answer once beforeAll has run.
 */
export function useGatewayOverKinds(kinds: ProviderKind[]): { gateway(): StartedGateway; client(): OpenAI } {
  let gateway: StartedGateway | undefined;
  let client: OpenAI | undefined;
  beforeAll(async () => {
    await Promise.all(kinds.map((kind) => kind.start()));
    gateway = await startGateway({ providers: Object.fromEntries(kinds.map((kind) => [kind.name, kind.providerEntry()])) });
    client = gateway.client();
  });
  afterAll(async () => {
    await gateway?.close();
    await Promise.all(kinds.map((kind) => kind.close()));
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the gateway over every provider kind is not started yet');
    return value;
  };
  return { gateway: () => started(gateway), client: () => started(client) };
}
