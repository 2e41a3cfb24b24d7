/**
 * Credentials from each cloud's usual places, end to end, in a real gateway process: a Vertex provider with
 * a service-account `keyFile`, one with Application Default Credentials (GOOGLE_APPLICATION_CREDENTIALS),
 * an Azure OpenAI provider with an Entra ID service principal in its config, and one with none
 * (DefaultAzureCredential, from the AZURE_* variables). google-auth-library and @azure/identity run
 * unchanged and reach their real token URLs (oauth2.googleapis.com, login.microsoftonline.com) through
 * HTTPS_PROXY, which a test proxy on 127.0.0.1 answers with fake token endpoints under a throwaway CA: the
 * service account's JWT is verified with its public key, the client secret is checked, and the cloud fakes
 * accept only the tokens those endpoints issued.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeAzureOpenAi, type FakeAzureOpenAi } from '../helpers/fake-azure-openai-server.js';
import { fakeEntraTokenEndpoint, type FakeEntraTokenEndpoint } from '../helpers/fake-entra-token-endpoint.js';
import { fakeGoogleTokenEndpoint, type FakeGoogleTokenEndpoint } from '../helpers/fake-google-token-endpoint.js';
import { startFakeVertex, type FakeVertex } from '../helpers/fake-vertex-server.js';
import { freePort, GatewayProcesses, waitForHealth, type StartedProcess } from '../helpers/gateway-process.js';
import { startInterceptingProxy, type InterceptingProxy } from '../helpers/intercepting-proxy.js';
import type { RecordedRequest } from '../helpers/loopback-server.js';
import { createTestCertificates, opensslAvailable, type TestCertificates } from '../helpers/test-certificate-authority.js';

const project = 'my-project';
const configured = { tenant: 'tenant-from-config', clientId: 'client-from-config', secret: 'secret-from-config' };
const environment = { tenant: 'tenant-from-environment', clientId: 'client-from-environment', secret: 'secret-from-environment' };
const cloudPlatform = 'https://www.googleapis.com/auth/cloud-platform';

let directory: string;
let certificates: TestCertificates;
let google: FakeGoogleTokenEndpoint;
let entra: FakeEntraTokenEndpoint;
let proxy: InterceptingProxy;
let vertex: FakeVertex;
let azure: FakeAzureOpenAi;
let gateway: StartedProcess;
let client: OpenAI;
const processes = new GatewayProcesses();

function entraRequests(): RecordedRequest[] {
  return proxy.servers['login.microsoftonline.com']?.requests ?? [];
}

async function ask(model: string): Promise<string | null | undefined> {
  const completion = await client.chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }] });
  return completion.choices[0]?.message.content;
}

describe.skipIf(!opensslAvailable())('credentials from the clouds usual places (needs the openssl command line)', () => {
  beforeAll(async () => {
    directory = await mkdtemp(path.join(tmpdir(), 'interlingua-credentials-'));
    certificates = createTestCertificates(['oauth2.googleapis.com', 'login.microsoftonline.com']);
    google = fakeGoogleTokenEndpoint();
    entra = fakeEntraTokenEndpoint({ [configured.clientId]: configured.secret, [environment.clientId]: environment.secret });
    proxy = await startInterceptingProxy(certificates, {
      'oauth2.googleapis.com': google.handler,
      'login.microsoftonline.com': entra.handler,
    });
    vertex = await startFakeVertex({ project, location: 'us-east5', bearerTokens: () => google.issued.map((entry) => entry.token) });
    azure = await startFakeAzureOpenAi({ deployments: ['gpt-4o-prod'], bearerTokens: () => entra.issued.map((entry) => entry.token) });

    await writeFile(
      path.join(directory, 'key-file.json'),
      JSON.stringify(google.createServiceAccount('key-file@my-project.iam.gserviceaccount.com', project)),
    );
    await writeFile(
      path.join(directory, 'adc.json'),
      JSON.stringify(google.createServiceAccount('adc@my-project.iam.gserviceaccount.com', project)),
    );
    // Present at start (a missing key file stops the start: test/config/cloud-provider-settings.test.ts), gone by the first request.
    await writeFile(
      path.join(directory, 'vanishing.json'),
      JSON.stringify(google.createServiceAccount('gone@my-project.iam.gserviceaccount.com', project)),
    );
    const configFile = path.join(directory, 'config.yaml');
    await writeFile(
      configFile,
      [
        'providers:',
        `  vertex-key: { type: vertex, project: ${project}, location: us-east5, baseUrl: "${vertex.url}", keyFile: key-file.json }`,
        `  vertex-adc: { type: vertex, project: ${project}, location: us-east5, baseUrl: "${vertex.url}" }`,
        `  azure-entra:`,
        `    type: azure-openai`,
        `    baseUrl: "${azure.url}"`,
        `    entra: { tenantId: ${configured.tenant}, clientId: ${configured.clientId}, clientSecret: "\${ENTRA_SECRET}" }`,
        `  azure-default: { type: azure-openai, baseUrl: "${azure.url}" }`,
        `  azure-wrong-secret:`,
        `    type: azure-openai`,
        `    baseUrl: "${azure.url}"`,
        `    entra: { tenantId: ${configured.tenant}, clientId: ${configured.clientId}, clientSecret: not-the-secret }`,
        `  vertex-no-key: { type: vertex, project: ${project}, location: us-east5, baseUrl: "${vertex.url}", keyFile: vanishing.json }`,
      ].join('\n'),
    );
    const port = await freePort();
    gateway = processes.start(['--config', configFile, '--port', String(port)], {
      HTTPS_PROXY: proxy.url,
      NO_PROXY: '127.0.0.1,localhost',
      NODE_EXTRA_CA_CERTS: certificates.caFile,
      GOOGLE_APPLICATION_CREDENTIALS: path.join(directory, 'adc.json'),
      AZURE_TENANT_ID: environment.tenant,
      AZURE_CLIENT_ID: environment.clientId,
      AZURE_CLIENT_SECRET: environment.secret,
      ENTRA_SECRET: configured.secret,
    });
    await waitForHealth(gateway, port);
    await rm(path.join(directory, 'vanishing.json'));
    client = new OpenAI({ baseURL: `http://127.0.0.1:${port}/v1`, apiKey: 'unused', maxRetries: 0 });
  }, 90_000);

  afterAll(async () => {
    processes.killAll();
    await Promise.all([proxy?.close(), vertex?.close(), azure?.close()]);
    certificates?.remove();
    await rm(directory, { recursive: true, force: true });
  });

  it("Vertex with a service-account keyFile: the key file's account signs the grant, its token reaches Vertex", async () => {
    vertex.gemini.enqueue({ type: 'generate', chunks: [[{ text: 'from the key file' }]] });
    expect(await ask('vertex-key/gemini-2.5-pro')).toBe('from the key file');
    const tokens = google.issued.filter((entry) => entry.account === 'key-file@my-project.iam.gserviceaccount.com');
    expect(tokens).toEqual([expect.objectContaining({ scope: cloudPlatform })]);
    expect(vertex.requests.at(-1)?.headers.authorization).toBe(`Bearer ${tokens[0]?.token}`);
    // The token is kept while it is valid.
    vertex.anthropic.enqueue({ type: 'message', content: [{ type: 'text', text: 'again' }] });
    expect(await ask('vertex-key/claude-sonnet-4-5@20250929')).toBe('again');
    expect(google.issued.filter((entry) => entry.account === tokens[0]?.account)).toHaveLength(1);
  });

  it('Vertex with Application Default Credentials: GOOGLE_APPLICATION_CREDENTIALS names the account', async () => {
    vertex.gemini.enqueue({ type: 'generate', chunks: [[{ text: 'from ADC' }]] });
    expect(await ask('vertex-adc/gemini-2.5-flash')).toBe('from ADC');
    const token = google.issued.find((entry) => entry.account === 'adc@my-project.iam.gserviceaccount.com');
    expect(vertex.requests.at(-1)?.headers.authorization).toBe(`Bearer ${token?.token}`);
  });

  it("Azure OpenAI with the config's Entra ID service principal: a client-credentials token for Cognitive Services", async () => {
    azure.openai.enqueue({ type: 'chat', content: 'from the config principal' });
    expect(await ask('azure-entra/gpt-4o-prod')).toBe('from the config principal');
    const token = entra.issued.find((entry) => entry.clientId === configured.clientId);
    expect(token).toMatchObject({
      tenant: configured.tenant,
      scope: expect.stringContaining('https://cognitiveservices.azure.com/.default'),
    });
    expect(azure.requests.at(-1)?.headers.authorization).toBe(`Bearer ${token?.token}`);
  });

  it('Azure OpenAI with no key and no principal: DefaultAzureCredential takes the AZURE_* variables', async () => {
    azure.openai.enqueue({ type: 'chat', content: 'from the environment' }, { type: 'chat', content: 'still cached' });
    expect(await ask('azure-default/gpt-4o-prod')).toBe('from the environment');
    expect(await ask('azure-default/gpt-4o-prod')).toBe('still cached');
    const tokens = entra.issued.filter((entry) => entry.clientId === environment.clientId);
    expect(tokens).toEqual([expect.objectContaining({ tenant: environment.tenant })]);
    expect(azure.requests.at(-1)?.headers.authorization).toBe(`Bearer ${tokens[0]?.token}`);
  });

  it('credentials that fail are a 502 naming the cloud and what to set, and the next request asks again', async () => {
    const failures = [
      ['azure-wrong-secret/gpt-4o-prod', /Microsoft Entra ID.*AADSTS7000215/s],
      ['vertex-no-key/gemini-2.5-pro', /Google Cloud credentials.*vanishing\.json/s],
    ] as const;
    for (const [model, message] of failures) {
      for (let attempt = 0; attempt < 2; attempt++) {
        const error = await ask(model).then(
          () => undefined,
          (failure: unknown) => failure,
        );
        expect(error).toBeInstanceOf(OpenAI.APIError);
        expect((error as InstanceType<typeof OpenAI.APIError>).status).toBe(502);
        expect((error as Error).message).toMatch(message);
      }
    }
    // Each failed request asked Entra ID again (a failure is not cached).
    const wrongSecretAsked = entraRequests().filter((request) => String(request.body).includes('client_secret=not-the-secret'));
    expect(wrongSecretAsked).toHaveLength(2);
  });

  it('nothing else was asked: no metadata server, no instance discovery elsewhere, no secret in the log', () => {
    expect(proxy.refused).toEqual([]);
    expect(gateway.output()).not.toContain(configured.secret);
  });
});
