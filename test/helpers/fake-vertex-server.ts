/**
 * A fake Vertex AI endpoint on 127.0.0.1, as its REST API answers
 * (https://cloud.google.com/vertex-ai/generative-ai/docs/model-reference/inference for Gemini's
 * `publishers/google/models/{model}:generateContent` and `:streamGenerateContent?alt=sse`;
 * https://docs.anthropic.com/en/api/claude-on-vertex-ai for Claude's `publishers/anthropic/models/{model}
 * :rawPredict` and `:streamRawPredict`, whose body carries `anthropic_version: "vertex-2023-10-16"` and no
 * `model`). Calls need `Authorization: Bearer <token>` with a token the test issued (401 UNAUTHENTICATED
 * otherwise, in Google's error envelope: https://cloud.google.com/apis/design/errors) and the project and
 * location the fake was started for (404 NOT_FOUND otherwise). The replies come from the fake Gemini and
 * Anthropic upstreams behind it, so tests script them there.
 */
import http from 'node:http';
import { startFakeAnthropicUpstream, type FakeAnthropicUpstream } from './fake-anthropic-upstream.js';
import { startFakeGeminiUpstream, type FakeGeminiUpstream } from './fake-gemini-upstream.js';
import { startLoopbackServer, type RecordedRequest } from './loopback-server.js';

export type FakeVertex = {
  url: string;
  gemini: FakeGeminiUpstream;
  anthropic: FakeAnthropicUpstream;
  requests: RecordedRequest[];
  close(): Promise<void>;
};

function googleError(response: http.ServerResponse, code: number, status: string, message: string): void {
  response.writeHead(code, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { code, message, status } }));
}

function forward(url: string, body: unknown, headers: Record<string, string>, response: http.ServerResponse): void {
  const upstream = http.request(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers } }, (answer) => {
    response.writeHead(answer.statusCode ?? 502, answer.headers);
    answer.pipe(response);
    // A cut upstream body cuts this one.
    answer.on('close', () => void (answer.complete || response.destroy()));
  });
  upstream.on('error', () => response.destroy());
  // A client that leaves releases the upstream (abort propagation).
  response.on('close', () => upstream.destroy());
  upstream.end(JSON.stringify(body));
}

export type FakeVertexOptions = {
  project: string;
  location: string;
  /** The OAuth access tokens Google would accept for the project (asked on each call: tokens may be issued later). */
  bearerTokens: () => readonly string[];
  /**
   * A project whose organization policy (`constraints/vertexai.allowedPartnerModelFeatures`) does not allow
   * Claude's `structured_outputs`, Vertex's default
   * (https://docs.cloud.google.com/vertex-ai/generative-ai/docs/partner-models/claude/structured_outputs: "By
   * default, structured outputs are disabled by the organization policy constraint"): a strict tool or an
   * `output_config.format` is refused before the model runs: in Anthropic's words for the field (`true`), or in
   * the organization policy's own words, Google's 400 FAILED_PRECONDITION (`'organization-policy'`).
   */
  withoutStructuredOutputs?: boolean | 'organization-policy';
  /**
   * The `anthropic-beta` values Vertex refuses for Claude (it takes only those it lists): by default the beta of
   * structured outputs, which users of every SDK met on Vertex (BerriAI/litellm#17755, ax-llm/ax#462).
   */
  refusedBetas?: readonly string[];
};

/**
 * Vertex's 400 for betas it does not take, in Anthropic's envelope, naming each ("Unexpected value(s)
 * `structured-outputs-2025-11-13` for the `anthropic-beta` header. Please consult our documentation at
 * docs.anthropic.com or try again without the header.", quoted in BerriAI/litellm#17755 and
 * anthropics/claude-code#12429); several are listed the same way, comma-separated.
 */
function betaRefusal(header: string | string[] | undefined, refused: readonly string[]): string | undefined {
  const sent = String(header ?? '')
    .split(',')
    .map((beta) => beta.trim());
  const unexpected = sent.filter((beta) => refused.includes(beta));
  if (unexpected.length === 0) return undefined;
  const values = unexpected.map((beta) => `\`${beta}\``).join(', ');
  return `Unexpected value(s) ${values} for the \`anthropic-beta\` header. Please consult our documentation at docs.anthropic.com or try again without the header.`;
}

/**
 * Vertex's 400 for structured-output fields its project does not take, in Anthropic's envelope with a
 * Vertex request id: "tools.0.custom.strict: Extra inputs are not permitted" (quoted in vercel/ai#13353) and
 * "output_config.format: Extra inputs are not permitted" (anthropics/anthropic-sdk-python#1188).
 */
function structuredOutputsRefusal(body: Record<string, unknown>): string | undefined {
  const tools = Array.isArray(body.tools) ? (body.tools as { strict?: unknown }[]) : [];
  const strict = tools.findIndex((tool) => tool.strict === true);
  if (strict !== -1) return `tools.${strict}.custom.strict: Extra inputs are not permitted`;
  const format = (body.output_config as { format?: unknown } | undefined)?.format;
  return format === undefined ? undefined : 'output_config.format: Extra inputs are not permitted';
}

/**
 * The organization policy's refusal, as Vertex words it for a project whose policy does not list the model's
 * `structured_outputs` (quoted in full by users of Claude Code and caliper-style tools: "Organization Policy
 * constraint constraints/vertexai.allowedPartnerModelFeatures violated for `projects/N` attempting to use a
 * disallowed feature structured_outputs for Partner model claude-opus-4-6. Please contact your organization
 * administrator to fix this violation by adding `publishers/anthropic/models/claude-opus-4-6:structured_outputs`
 * to the allowed values."), in Google's error envelope with status FAILED_PRECONDITION.
 */
function organizationPolicyRefusal(model: string): string {
  return [
    'Organization Policy constraint constraints/vertexai.allowedPartnerModelFeatures violated for `projects/370789798156`',
    `attempting to use a disallowed feature structured_outputs for Partner model ${model}. Please contact your organization`,
    `administrator to fix this violation by adding \`publishers/anthropic/models/${model}:structured_outputs\` to the allowed values.`,
  ].join(' ');
}

type SourcedBlock = { type?: unknown; source?: { type?: unknown }; content?: unknown };

/**
 * Claude on Vertex takes files inline only: a `url` source is refused for the whole request, "messages.0.content.1.
 * image.source.base64.data: URL sources are not supported" (BerriAI/litellm#18430; langchain-ai/langchain-google#1088),
 * in a turn's blocks or a tool result's.
 */
function urlSourceRefusal(messages: unknown): string | undefined {
  if (!Array.isArray(messages)) return undefined;
  for (const [position, message] of (messages as { content?: unknown }[]).entries()) {
    if (!Array.isArray(message.content)) continue;
    for (const [index, block] of (message.content as SourcedBlock[]).entries()) {
      const inner = block.type === 'tool_result' && Array.isArray(block.content) ? (block.content as SourcedBlock[]) : [];
      const sourced = [block, ...inner].find((candidate) => candidate.source?.type === 'url');
      if (sourced) return `messages.${position}.content.${index}.${String(sourced.type)}.source.base64.data: URL sources are not supported`;
    }
  }
  return undefined;
}

export async function startFakeVertex(options: FakeVertexOptions): Promise<FakeVertex> {
  const [gemini, anthropic] = await Promise.all([startFakeGeminiUpstream(), startFakeAnthropicUpstream()]);
  const server = await startLoopbackServer((request, response) => {
    const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
    if (bearer === undefined || !options.bearerTokens().includes(bearer))
      return googleError(
        response,
        401,
        'UNAUTHENTICATED',
        'Request had invalid authentication credentials. Expected OAuth 2 access token.',
      );
    const route = /^\/v1\/projects\/([^/]+)\/locations\/([^/]+)\/publishers\/(google|anthropic)\/models\/([^/:]+):(\w+)(\?alt=sse)?$/.exec(
      request.path,
    );
    if (!route || route[1] !== options.project || route[2] !== options.location)
      return googleError(
        response,
        404,
        'NOT_FOUND',
        `Publisher model ${request.path} was not found or your project does not have access to it.`,
      );
    const [, , , publisher, model, method, sse] = route as unknown as string[];
    const body = (request.body ?? {}) as Record<string, unknown>;
    if (publisher === 'google') {
      if (method === 'streamGenerateContent' && !sse) return googleError(response, 400, 'INVALID_ARGUMENT', 'expected alt=sse');
      return forward(`${gemini.url}/v1beta/models/${model}:${method}${sse ?? ''}`, body, { 'x-goog-api-key': 'fake' }, response);
    }
    if (body.anthropic_version !== 'vertex-2023-10-16' || 'model' in body)
      return googleError(
        response,
        400,
        'INVALID_ARGUMENT',
        'anthropic_version must be vertex-2023-10-16 and the body must not name the model',
      );
    const betasRefused = betaRefusal(request.headers['anthropic-beta'], options.refusedBetas ?? ['structured-outputs-2025-11-13']);
    const refused =
      betasRefused ?? urlSourceRefusal(body.messages) ?? (options.withoutStructuredOutputs ? structuredOutputsRefusal(body) : undefined);
    if (!betasRefused && refused && options.withoutStructuredOutputs === 'organization-policy')
      return googleError(response, 400, 'FAILED_PRECONDITION', organizationPolicyRefusal(decodeURIComponent(model as string)));
    if (refused) {
      response
        .writeHead(400, { 'content-type': 'application/json' })
        .end(
          JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', message: refused }, request_id: 'req_vrtx_011CWfake' }),
        );
      return;
    }
    const stream = method === 'streamRawPredict';
    const { anthropic_version: _version, ...messages } = body;
    forward(
      `${anthropic.url}/v1/messages`,
      { ...messages, model: decodeURIComponent(model as string), stream },
      { 'x-api-key': 'fake', 'anthropic-version': '2023-06-01' },
      response,
    );
  });
  return {
    url: server.url,
    gemini,
    anthropic,
    requests: server.requests,
    close: async () => {
      await server.close();
      await Promise.all([gemini.close(), anthropic.close()]);
    },
  };
}
