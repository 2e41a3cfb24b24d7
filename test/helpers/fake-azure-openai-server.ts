/**
 * A fake Azure OpenAI resource on 127.0.0.1, as its data-plane REST API answers
 * (https://learn.microsoft.com/azure/ai-foundry/openai/reference,
 * https://learn.microsoft.com/azure/ai-foundry/openai/api-version-lifecycle): the v1 routes
 * (`/openai/v1/chat/completions`, the deployment as `model` in the body) and the dated ones
 * (`/openai/deployments/{deployment}/chat/completions?api-version=…`); a key in the `api-key` header or an
 * Entra ID bearer token; 401 for a wrong key, 404 `DeploymentNotFound` for an unknown deployment, and a
 * dated route without `api-version` is a 404 `Resource not found` (what Azure answers, not a 400:
 * https://github.com/MicrosoftDocs/azure-docs/issues/114602).
 *
 * Replies carry Azure's content-filter annotations (https://learn.microsoft.com/azure/ai-foundry/openai/concepts/content-filter):
 * a stream opens with a chunk of `prompt_filter_results` alone (empty `id`, `model` and `choices`), each
 * choice carries `content_filter_results`, and a prompt with `blockedPhrase` in it is refused with a 400
 * `content_filter` error whose `innererror` says which category. The completions themselves come from the
 * fake OpenAI upstream behind it (the wire format is OpenAI's), so tests script replies on `openai`.
 */
import http from 'node:http';
import { startFakeOpenAiUpstream, type FakeOpenAiUpstream } from './fake-openai-upstream.js';
import { startLoopbackServer, type RecordedRequest } from './loopback-server.js';

export type FakeAzureOpenAi = {
  url: string;
  /** Scripts the completions (OpenAI's wire format). */
  openai: FakeOpenAiUpstream;
  requests: RecordedRequest[];
  close(): Promise<void>;
};

export type FakeAzureOpenAiOptions = {
  deployments: string[];
  apiKey?: string;
  /** The Entra ID access tokens the resource accepts as `Authorization: Bearer`. */
  bearerTokens?: () => readonly string[];
  /** A prompt containing it is refused by the content filter (as `hate`, filtered at `high`). */
  blockedPhrase?: string;
  /** Scripts completions on this fake OpenAI upstream instead of one of its own (left open on close). */
  openai?: FakeOpenAiUpstream;
};

function azureError(response: http.ServerResponse, status: number, error: Record<string, unknown>): void {
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ error }));
}

const safe = { filtered: false, severity: 'safe' };
const contentFilterResults = { hate: safe, self_harm: safe, sexual: safe, violence: safe };
const promptFilterResults = [
  { prompt_index: 0, content_filter_results: { ...contentFilterResults, jailbreak: { filtered: false, detected: false } } },
];

/** Azure's annotations on one chunk or completion: each choice's `content_filter_results`. */
function annotate(value: Record<string, unknown>): Record<string, unknown> {
  const choices = Array.isArray(value.choices) ? (value.choices as Record<string, unknown>[]) : [];
  return { ...value, choices: choices.map((choice) => ({ ...choice, content_filter_results: contentFilterResults })) };
}

/** The SSE frames of the fake OpenAI upstream, annotated as Azure sends them, frame by frame as they arrive. */
function relayStream(answer: http.IncomingMessage, response: http.ServerResponse): void {
  response.writeHead(answer.statusCode ?? 502, answer.headers);
  const opening = { id: '', object: '', created: 0, model: '', choices: [], prompt_filter_results: promptFilterResults };
  response.write(`data: ${JSON.stringify(opening)}\n\n`);
  let pending = '';
  answer.setEncoding('utf8');
  answer.on('data', (text: string) => {
    pending += text;
    const frames = pending.split('\n\n');
    pending = frames.pop() ?? '';
    for (const frame of frames) {
      const data = frame.startsWith('data: ') ? frame.slice('data: '.length) : undefined;
      const parsed = data === undefined || data === '[DONE]' ? undefined : (JSON.parse(data) as Record<string, unknown>);
      response.write(parsed && !('error' in parsed) ? `data: ${JSON.stringify(annotate(parsed))}\n\n` : `${frame}\n\n`);
    }
  });
  answer.on('end', () => response.end(pending));
}

function relayWhole(answer: http.IncomingMessage, response: http.ServerResponse): void {
  const chunks: Buffer[] = [];
  answer.on('data', (chunk: Buffer) => chunks.push(chunk));
  answer.on('end', () => {
    const text = Buffer.concat(chunks).toString('utf8');
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    const completion = body as Record<string, unknown> | undefined;
    const ok = (answer.statusCode ?? 500) < 300 && completion && Array.isArray(completion.choices);
    response.writeHead(answer.statusCode ?? 502, { 'content-type': answer.headers['content-type'] ?? 'application/json' });
    response.end(ok ? JSON.stringify({ ...annotate(completion), prompt_filter_results: promptFilterResults }) : text);
  });
}

/** Sends the request on to the fake OpenAI upstream as `POST /v1/…` and relays its answer with Azure's annotations. */
function forward(openai: FakeOpenAiUpstream, path: string, body: Record<string, unknown>, response: http.ServerResponse): void {
  const upstream = http.request(`${openai.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' } }, (answer) => {
    // A cut upstream body cuts this one.
    answer.on('close', () => void (answer.complete || response.destroy()));
    if (path !== '/v1/chat/completions' || (answer.statusCode ?? 500) >= 300) {
      response.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(response);
    } else if (body.stream === true) relayStream(answer, response);
    else relayWhole(answer, response);
  });
  upstream.on('error', () => response.destroy());
  // A client that leaves releases the upstream (abort propagation).
  response.on('close', () => upstream.destroy());
  upstream.end(JSON.stringify(body));
}

/**
 * Dated API versions before 2024-09-01-preview know neither `max_completion_tokens`, `parallel_tool_calls`
 * nor `stream_options` (https://learn.microsoft.com/azure/ai-services/openai/api-version-deprecation, "Changes
 * between 2024-09-01-preview and 2024-08-01-preview") and refuse them with a 400 naming the field, as
 * reported in Azure/azure-sdk-for-java#40198 and openai/openai-python#1469.
 */
function unknownToOldVersion(version: string, body: Record<string, unknown>): string | undefined {
  if (version >= '2024-09-01') return undefined;
  return ['stream_options', 'max_completion_tokens', 'parallel_tool_calls'].find((field) => field in body);
}

function contentFilterRefusal(response: http.ServerResponse): void {
  azureError(response, 400, {
    message:
      "The response was filtered due to the prompt triggering Azure OpenAI's content management policy. Please modify your prompt and retry. To learn more about our content filtering policies please read our documentation: https://go.microsoft.com/fwlink/?linkid=2198766",
    type: null,
    param: 'prompt',
    code: 'content_filter',
    status: 400,
    innererror: {
      code: 'ResponsibleAIPolicyViolation',
      content_filter_result: { ...contentFilterResults, hate: { filtered: true, severity: 'high' } },
    },
  });
}

export async function startFakeAzureOpenAi(options: FakeAzureOpenAiOptions): Promise<FakeAzureOpenAi> {
  const openai = options.openai ?? (await startFakeOpenAiUpstream());
  const server = await startLoopbackServer((request, response) => {
    const url = new URL(request.path, 'http://azure.invalid');
    const key = request.headers['api-key'];
    const bearer = request.headers.authorization?.replace(/^Bearer /, '');
    const authorized =
      (options.apiKey !== undefined && key === options.apiKey) ||
      (bearer !== undefined && (options.bearerTokens?.() ?? []).includes(bearer));
    if (!authorized)
      return azureError(response, 401, {
        code: '401',
        message:
          'Access denied due to invalid subscription key or wrong API endpoint. Make sure to provide a valid key for an active subscription and use a correct regional API endpoint for your resource.',
      });
    const body = (request.body ?? {}) as Record<string, unknown>;
    const dated = /^\/openai\/deployments\/([^/]+)\/(chat\/completions|embeddings)$/.exec(url.pathname);
    let deployment: unknown;
    let operation: string | undefined;
    if (url.pathname === '/openai/v1/chat/completions' || url.pathname === '/openai/v1/embeddings') {
      deployment = body.model;
      operation = url.pathname.slice('/openai/v1/'.length);
    } else if (dated) {
      const version = url.searchParams.get('api-version');
      if (!version) return azureError(response, 404, { code: '404', message: 'Resource not found' });
      const unknown = unknownToOldVersion(version, body);
      if (unknown)
        return azureError(response, 400, {
          message: `Unrecognized request argument supplied: ${unknown}`,
          type: 'invalid_request_error',
          param: null,
          code: null,
        });
      deployment = decodeURIComponent(dated[1] as string);
      operation = dated[2];
    } else return azureError(response, 404, { code: '404', message: 'Resource not found' });
    if (typeof deployment !== 'string' || !options.deployments.includes(deployment))
      return azureError(response, 404, {
        code: 'DeploymentNotFound',
        message:
          'The API deployment for this resource does not exist. If you created the deployment within the last 5 minutes, please wait a moment and try again.',
      });
    if (options.blockedPhrase && JSON.stringify(body.messages ?? '').includes(options.blockedPhrase)) return contentFilterRefusal(response);
    forward(openai, `/v1/${operation as string}`, { ...body, model: deployment }, response);
  });
  return {
    url: server.url,
    openai,
    requests: server.requests,
    close: async () => {
      await server.close();
      if (!options.openai) await openai.close();
    },
  };
}
