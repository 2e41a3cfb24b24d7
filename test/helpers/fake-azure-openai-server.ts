/**
 * A fake Azure OpenAI resource on 127.0.0.1, as its data-plane REST API answers
 * (https://learn.microsoft.com/azure/ai-foundry/openai/reference,
 * https://learn.microsoft.com/azure/ai-foundry/openai/api-version-lifecycle): the v1 routes
 * (`/openai/v1/chat/completions`, the deployment as `model` in the body) and the dated ones
 * (`/openai/deployments/{deployment}/chat/completions?api-version=…`); a key in the `api-key` header or an
 * Entra ID bearer token; 401 for a wrong key, 404 `DeploymentNotFound` for an unknown deployment, 404
 * `Resource not found` for a dated route without api-version. The completions themselves come from the
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

function azureError(response: http.ServerResponse, status: number, code: string, message: string): void {
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { code, message } }));
}

/** Sends the request on to the fake OpenAI upstream as `POST /v1/…` and streams its answer back unchanged. */
function forward(openai: FakeOpenAiUpstream, path: string, body: unknown, response: http.ServerResponse): void {
  const upstream = http.request(`${openai.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' } }, (answer) => {
    response.writeHead(answer.statusCode ?? 502, answer.headers);
    answer.pipe(response);
  });
  upstream.end(JSON.stringify(body));
}

export async function startFakeAzureOpenAi(options: {
  deployments: string[];
  apiKey?: string;
  bearerToken?: string;
}): Promise<FakeAzureOpenAi> {
  const openai = await startFakeOpenAiUpstream();
  const server = await startLoopbackServer((request, response) => {
    const url = new URL(request.path, 'http://azure.invalid');
    const key = request.headers['api-key'];
    const bearer = request.headers.authorization?.replace(/^Bearer /, '');
    const authorized =
      (options.apiKey !== undefined && key === options.apiKey) || (options.bearerToken !== undefined && bearer === options.bearerToken);
    if (!authorized)
      return azureError(
        response,
        401,
        '401',
        'Access denied due to invalid subscription key or wrong API endpoint. Make sure to provide a valid key for an active subscription and use a correct regional API endpoint for your resource.',
      );
    const body = (request.body ?? {}) as { model?: string };
    const dated = /^\/openai\/deployments\/([^/]+)\/(chat\/completions|embeddings)$/.exec(url.pathname);
    let deployment: string | undefined;
    let operation: string | undefined;
    if (url.pathname === '/openai/v1/chat/completions' || url.pathname === '/openai/v1/embeddings') {
      deployment = body.model;
      operation = url.pathname.slice('/openai/v1/'.length);
    } else if (dated) {
      if (!url.searchParams.get('api-version')) return azureError(response, 404, '404', 'Resource not found');
      deployment = decodeURIComponent(dated[1] as string);
      operation = dated[2];
    } else return azureError(response, 404, '404', 'Resource not found');
    if (!deployment || !options.deployments.includes(deployment))
      return azureError(
        response,
        404,
        'DeploymentNotFound',
        'The API deployment for this resource does not exist. If you created the deployment within the last 5 minutes, please wait a moment and try again.',
      );
    forward(openai, `/v1/${operation as string}`, { ...body, model: deployment }, response);
  });
  return {
    url: server.url,
    openai,
    requests: server.requests,
    close: async () => {
      await server.close();
      await openai.close();
    },
  };
}
