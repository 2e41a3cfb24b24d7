/**
 * A scripted fake of Google's Gemini API on 127.0.0.1:0: `POST /v1beta/models/{model}:streamGenerateContent?alt=sse`
 * streams one `data: {GenerateContentResponse}` event per chunk (CRLF-separated, as Google's servers write
 * them, with running `usageMetadata` on each and `finishReason` on the last); `:generateContent` answers the
 * same reply as one object; `GET /v1beta/models` lists models. Every request is recorded.
 * Wire formats: https://ai.google.dev/api/generate-content and https://ai.google.dev/api/models
 */
import type http from 'node:http';
import { fakeTokenLogprob } from './fake-openai-upstream.js';
import { sleep, startLoopbackServer, type RecordedRequest } from './loopback-server.js';

/** One part as Gemini sends it; each chunk of a streamed reply carries the parts listed for it. */
export type FakeGeminiPart =
  | { text: string; thought?: boolean; thoughtSignature?: string }
  | { functionCall: { id?: string; name: string; args: Record<string, unknown> }; thoughtSignature?: string };

export type FakeGeminiUsage = {
  promptTokenCount: number;
  candidatesTokenCount: number;
  thoughtsTokenCount?: number;
  cachedContentTokenCount?: number;
};

export type FakeGeminiGenerateReply = {
  type: 'generate';
  /** Each inner array is one streamed chunk (one SSE event); a whole reply joins them. */
  chunks: FakeGeminiPart[][];
  /** Defaults to STOP. */
  finishReason?: string;
  usage?: FakeGeminiUsage;
  modelVersion?: string;
  promptFeedback?: { blockReason: string };
  headers?: Record<string, string>;
  headersDelayMs?: number;
  /** After this many chunks: an error event (`data: {"error":…}`), a destroyed socket, or silence until the client leaves. */
  interruption?:
    | { type: 'error-event'; afterChunks: number; message: string }
    | { type: 'destroy'; afterChunks: number }
    | { type: 'hold'; afterChunks: number };
};

export type FakeGeminiErrorReply = { type: 'http-error'; status: number; message: string; headers?: Record<string, string> };

export type FakeGeminiReply = FakeGeminiGenerateReply | FakeGeminiErrorReply;

export type FakeGeminiUpstream = {
  url: string;
  requests: RecordedRequest[];
  /** Only the generateContent and streamGenerateContent requests. */
  generateRequests(): RecordedRequest[];
  enqueue(...replies: FakeGeminiReply[]): void;
  /** Decides the reply to each generate request the queue has none for (scripted agent sessions). */
  respondWith(responder: ((request: RecordedRequest) => FakeGeminiReply) | undefined): void;
  /** Served by GET /v1beta/models (with `models/` prefixed, as Google names them). */
  models: string[];
  close(): Promise<void>;
};

/** Google's canonical status names, as its error bodies carry them. */
const statusNames: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
};

export function googleErrorBody(status: number, message: string) {
  return { error: { code: status, message, status: statusNames[status] ?? 'UNKNOWN' } };
}

const defaultUsage: FakeGeminiUsage = { promptTokenCount: 10, candidatesTokenCount: 5 };

function usageMetadata(usage: FakeGeminiUsage): Record<string, unknown> {
  const total = usage.promptTokenCount + usage.candidatesTokenCount + (usage.thoughtsTokenCount ?? 0);
  return { ...usage, totalTokenCount: total };
}

/** What a request asked of log probabilities: generationConfig.responseLogprobs, and `logprobs` top candidates (0 when absent). */
type FakeLogprobsRequest = { top: number };

function logprobsRequestOf(request: RecordedRequest): FakeLogprobsRequest | undefined {
  const config = (request.body as { generationConfig?: { responseLogprobs?: unknown; logprobs?: unknown } } | undefined)?.generationConfig;
  if (config?.responseLogprobs !== true) return undefined;
  return { top: typeof config.logprobs === 'number' ? config.logprobs : 0 };
}

/** One step's candidate as Gemini writes it (LogprobsResult.Candidate: token, tokenId, logProbability). */
function geminiCandidate(candidate: { token: string; logprob: number }, tokenId: number) {
  return { token: candidate.token, tokenId, logProbability: candidate.logprob };
}

/**
 * A chunk's `logprobsResult` (https://ai.google.dev/api/generate-content#LogprobsResult): one decoding step
 * per text part (one part, one token), with the values of the OpenAI fake (fakeTokenLogprob), steps numbered
 * across the reply from `first`; `topCandidates` only when candidates were asked for. The reference does not
 * say whether thoughts and function calls have steps; this fake gives them none (the reader handles both).
 * Nor does it say whether a streamed chunk's result holds that chunk's steps or every step so far (no
 * Google SDK, sample or recorded stream found shows one): this fake sends each chunk's own, and the reader
 * takes either (providers/gemini/read-gemini-logprobs.ts `stepsAfter`; both forms in
 * test/providers/gemini/gemini-reply-logprobs.test.ts).
 */
function logprobsResultOf(parts: FakeGeminiPart[], first: number, top: number): Record<string, unknown> {
  const steps = parts
    .filter((part): part is { text: string } => 'text' in part && part.thought !== true)
    .map(
      (part, offset) =>
        fakeTokenLogprob(part.text, first + offset, top) as {
          token: string;
          logprob: number;
          top_logprobs: { token: string; logprob: number }[];
        },
    );
  const result: Record<string, unknown> = {
    logProbabilitySum: steps.reduce((sum, step) => sum + step.logprob, 0),
    chosenCandidates: steps.map((step, offset) => geminiCandidate(step, first + offset)),
  };
  if (top > 0)
    result.topCandidates = steps.map((step) => ({
      candidates: step.top_logprobs.map((candidate, rank) => geminiCandidate(candidate, rank)),
    }));
  return result;
}

/** The GenerateContentResponse objects of a streamed reply, in wire order. */
export function renderGeminiChunks(
  reply: FakeGeminiGenerateReply,
  model: string,
  responseId: string,
  logprobs?: FakeLogprobsRequest,
): Record<string, unknown>[] {
  const usage = reply.usage ?? defaultUsage;
  const chunks = reply.chunks.length > 0 ? reply.chunks : [[]];
  let steps = 0;
  return chunks.map((parts, index) => {
    const last = index === chunks.length - 1;
    const candidate: Record<string, unknown> = { content: { parts, role: 'model' }, index: 0 };
    if (logprobs) {
      const result = logprobsResultOf(parts, steps, logprobs.top);
      steps += (result.chosenCandidates as unknown[]).length;
      candidate.logprobsResult = result;
    }
    if (last) candidate.finishReason = reply.finishReason ?? 'STOP';
    const chunk: Record<string, unknown> = {
      candidates: [candidate],
      usageMetadata: usageMetadata(last ? usage : { ...usage, candidatesTokenCount: index + 1 }),
      modelVersion: reply.modelVersion ?? model,
      responseId,
    };
    if (reply.promptFeedback) {
      chunk.promptFeedback = reply.promptFeedback;
      delete chunk.candidates;
    }
    return chunk;
  });
}

/** The whole `generateContent` reply: every chunk's parts in one candidate. */
function renderGeminiReply(
  reply: FakeGeminiGenerateReply,
  model: string,
  responseId: string,
  logprobs: FakeLogprobsRequest | undefined,
): Record<string, unknown> {
  const [last] = renderGeminiChunks({ ...reply, chunks: [reply.chunks.flat()] }, model, responseId, logprobs);
  return last as Record<string, unknown>;
}

let replyCounter = 0;

async function sendGenerate(
  reply: FakeGeminiGenerateReply,
  streamed: boolean,
  model: string,
  response: http.ServerResponse,
  logprobs: FakeLogprobsRequest | undefined,
): Promise<void> {
  if (reply.headersDelayMs) await sleep(reply.headersDelayMs);
  const responseId = `fake-response-${++replyCounter}`;
  const interruption = reply.interruption;
  if (!streamed) {
    response.writeHead(200, { 'content-type': 'application/json; charset=UTF-8', ...reply.headers });
    const body = JSON.stringify(renderGeminiReply(reply, model, responseId, logprobs));
    // A whole reply breaks off the way a stream would: an error object for the body, half a body, or silence.
    if (interruption?.type === 'error-event') response.end(JSON.stringify(googleErrorBody(500, interruption.message)));
    else if (interruption?.type === 'destroy') response.write(body.slice(0, body.length / 2), () => response.destroy());
    else if (interruption?.type !== 'hold') response.end(body);
    return;
  }
  response.writeHead(200, { 'content-type': 'text/event-stream', ...reply.headers });
  const chunks = renderGeminiChunks(reply, model, responseId, logprobs);
  for (const [index, chunk] of chunks.entries()) {
    if (interruption && index === interruption.afterChunks) {
      if (interruption.type === 'error-event') response.end(`data: ${JSON.stringify(googleErrorBody(500, interruption.message))}\r\n\r\n`);
      else if (interruption.type === 'destroy') response.destroy();
      // hold: nothing more, until the client goes away.
      return;
    }
    response.write(`data: ${JSON.stringify(chunk)}\r\n\r\n`);
    await sleep(1);
  }
  response.end();
}

const generatePath = /^\/v1beta\/models\/([^/:?]+):(generateContent|streamGenerateContent)(\?.*)?$/;

/**
 * Gemini before Gemini 3 takes function calling or a JSON response mime type, not both: a request with both is
 * refused before the model runs, 400 INVALID_ARGUMENT "Function calling with a response mime type:
 * 'application/json' is unsupported" (googleapis/python-genai#867, openai/openai-agents-python#656; Gemini 3
 * "lets you combine Structured Outputs with … function calling", per Google's structured-output docs).
 */
function toolsWithJsonRefusal(model: string, body: unknown): string | undefined {
  if (!/^gemini-[12]\./.test(model)) return undefined;
  const request = (body ?? {}) as { tools?: { functionDeclarations?: unknown[] }[]; generationConfig?: { responseMimeType?: unknown } };
  const declares = (request.tools ?? []).some((tool) => (tool.functionDeclarations ?? []).length > 0);
  if (!declares || request.generationConfig?.responseMimeType !== 'application/json') return undefined;
  return "Function calling with a response mime type: 'application/json' is unsupported";
}

/**
 * Gemini unrolls a cyclic `$ref` in `responseJsonSchema` "to a limited degree and, as such, [cyclic references] may
 * only be used within non-required properties. (Nullable properties are not sufficient.)" (GenerationConfig,
 * https://ai.google.dev/api/generate-content#generationconfig). The fake unrolls as that says: optional properties
 * are where unrolling may stop; everything else (required properties, items, every anyOf branch) must be unrolled,
 * and a schema still unrolling past `unrollDepth` is refused. No real wording of that refusal was found: the fake
 * answers a 400 INVALID_ARGUMENT naming the field, in the shape of Gemini's other schema refusals.
 */
const unrollDepth = 32;

function mustUnrollForever(schema: unknown, root: Record<string, unknown>, depth: number): boolean {
  if (depth > unrollDepth) return true;
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return false;
  const node = schema as Record<string, unknown>;
  if (typeof node.$ref === 'string' && node.$ref.startsWith('#/')) {
    const target = node.$ref
      .slice(2)
      .split('/')
      .reduce<unknown>((at, part) => (at as Record<string, unknown> | undefined)?.[part], root);
    return mustUnrollForever(target, root, depth + 1);
  }
  const required = Array.isArray(node.required) ? (node.required as string[]) : [];
  const properties = (node.properties ?? {}) as Record<string, unknown>;
  const unrolled = [
    ...required.map((name) => properties[name]),
    node.items,
    ...['anyOf', 'oneOf'].flatMap((key) => (Array.isArray(node[key]) ? (node[key] as unknown[]) : [])),
  ];
  return unrolled.some((child) => mustUnrollForever(child, root, depth));
}

function cyclicSchemaRefusal(body: unknown): string | undefined {
  const schema = (body as { generationConfig?: { responseJsonSchema?: unknown } } | undefined)?.generationConfig?.responseJsonSchema;
  if (typeof schema !== 'object' || schema === null || !mustUnrollForever(schema, schema as Record<string, unknown>, 0)) return undefined;
  return 'Invalid JSON payload: generation_config.response_json_schema: cyclic references may only be used within non-required properties.';
}

/**
 * Gemini takes nothing beside a `$ref` but keywords starting with `$`: "If $ref is set on a sub-schema, no other
 * properties, except for than those starting as a $, may be set." (GenerationConfig.responseJsonSchema,
 * https://ai.google.dev/api/generate-content#generationconfig). The API refuses such a schema, in a function's
 * parameters as in the response schema, with 400 INVALID_ARGUMENT "schema at properties.draft can only contain
 * properties starting with '$' when $ref is present" (google-gemini/gemini-cli#4758), naming the node by its path.
 */
function refWithSiblingsAt(schema: unknown, path: string[]): string | undefined {
  if (typeof schema !== 'object' || schema === null) return undefined;
  const entries = Array.isArray(schema) ? schema.map((child, index) => [String(index), child] as const) : Object.entries(schema);
  if (!Array.isArray(schema) && typeof (schema as Record<string, unknown>).$ref === 'string')
    if (entries.some(([key]) => !key.startsWith('$'))) return path.join('.');
  for (const [key, child] of entries) {
    // enum, const, default and examples hold data, where a `$ref` member is no reference.
    if (['enum', 'const', 'default', 'examples'].includes(key)) continue;
    const found = refWithSiblingsAt(child, [...path, key]);
    if (found !== undefined) return found;
  }
  return undefined;
}

function refSiblingRefusal(body: unknown): string | undefined {
  const request = (body ?? {}) as {
    generationConfig?: { responseJsonSchema?: unknown };
    tools?: { functionDeclarations?: { parametersJsonSchema?: unknown }[] }[];
  };
  const schemas = [
    request.generationConfig?.responseJsonSchema,
    ...(request.tools ?? []).flatMap((tool) => (tool.functionDeclarations ?? []).map((declaration) => declaration.parametersJsonSchema)),
  ];
  for (const schema of schemas) {
    const at = refWithSiblingsAt(schema, []);
    if (at !== undefined) return `schema at ${at} can only contain properties starting with '$' when $ref is present`;
  }
  return undefined;
}

export async function startFakeGeminiUpstream(): Promise<FakeGeminiUpstream> {
  const queue: FakeGeminiReply[] = [];
  let responder: ((request: RecordedRequest) => FakeGeminiReply) | undefined;
  const fake: Pick<FakeGeminiUpstream, 'models'> = { models: ['gemini-2.5-flash', 'gemini-2.5-pro'] };
  const server = await startLoopbackServer(async (request, response) => {
    if (request.method === 'GET' && request.path.startsWith('/v1beta/models')) {
      const models = fake.models.map((id) => ({
        name: `models/${id}`,
        displayName: id,
        supportedGenerationMethods: ['generateContent', 'countTokens'],
      }));
      models.push({ name: 'models/text-embedding-004', displayName: 'embedding', supportedGenerationMethods: ['embedContent'] });
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ models }));
      return;
    }
    const match = generatePath.exec(request.path);
    if (request.method !== 'POST' || !match) {
      response.writeHead(404, { 'content-type': 'application/json' });
      response.end(JSON.stringify(googleErrorBody(404, `no route ${request.method} ${request.path}`)));
      return;
    }
    const refused =
      toolsWithJsonRefusal(decodeURIComponent(match[1] ?? ''), request.body) ??
      refSiblingRefusal(request.body) ??
      cyclicSchemaRefusal(request.body);
    const reply: FakeGeminiReply = refused
      ? { type: 'http-error', status: 400, message: refused }
      : (queue.shift() ?? responder?.(request) ?? { type: 'generate', chunks: [[{ text: 'Hello' }], [{ text: ' there' }]] });
    if (reply.type === 'http-error') {
      response.writeHead(reply.status, { 'content-type': 'application/json; charset=UTF-8', ...reply.headers });
      response.end(JSON.stringify(googleErrorBody(reply.status, reply.message)));
      return;
    }
    const streamed = match[2] === 'streamGenerateContent';
    await sendGenerate(reply, streamed, decodeURIComponent(match[1] ?? ''), response, logprobsRequestOf(request));
  });
  return Object.assign(fake, {
    url: server.url,
    requests: server.requests,
    generateRequests: () => server.requests.filter((request) => generatePath.test(request.path)),
    enqueue: (...replies: FakeGeminiReply[]) => void queue.push(...replies),
    respondWith: (next: typeof responder) => void (responder = next),
    close: () => server.close(),
  });
}
