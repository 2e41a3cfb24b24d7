/**
 * The cloud providers' settings a team writes (docs/provider-azure-openai.md, provider-bedrock.md,
 * provider-vertex.md): what would only fail later, request by request, or be passed over for the
 * environment's credentials, is refused at load (start, `--check-config`, reload) naming the path, and
 * never quoting a secret.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/config-error.js';
import { loadConfig } from '../../src/config/load-config.js';

let directory: string;

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'interlingua-cloud-config-'));
});

afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

let fileCounter = 0;
async function configWithProvider(provider: string): Promise<string> {
  const path = join(directory, `config-${++fileCounter}.yaml`);
  await writeFile(path, `providers:\n  cloud: ${provider}\n`);
  return path;
}

async function problemsOf(provider: string): Promise<string[]> {
  const outcome = await loadConfig({ path: await configWithProvider(provider), environment: {} }).then(
    () => undefined,
    (error: unknown) => error,
  );
  if (!(outcome instanceof ConfigError)) throw new Error(`expected a ConfigError, got ${String(outcome)}`);
  return outcome.problems;
}

describe('Azure OpenAI', () => {
  it.each([
    ['https://my-resource.openai.azure.com/openai'],
    ['https://my-resource.openai.azure.com/openai/v1/'],
    ['https://my-resource.openai.azure.com/openai/deployments/gpt-4o-prod'],
  ])("refuses a baseUrl with Azure's API path (%s), which the gateway adds itself", async (baseUrl) => {
    const problems = await problemsOf(`{ type: azure-openai, baseUrl: "${baseUrl}", apiKey: az-secret-1 }`);
    expect(problems).toEqual([expect.stringMatching(/^providers\.cloud\.baseUrl: the resource's endpoint without its API path/)]);
  });

  it('keeps a resource endpoint and a proxy path that is not the API path', async () => {
    for (const baseUrl of ['https://my-resource.openai.azure.com/', 'https://apim.example.com/team-a/azure-openai']) {
      const { config } = await loadConfig({
        path: await configWithProvider(`{ type: azure-openai, baseUrl: "${baseUrl}", apiKey: az-secret-1 }`),
        environment: {},
      });
      expect(config.providers.cloud?.baseUrl).toBe(baseUrl.replace(/\/$/, ''));
    }
  });

  it('refuses a partial Entra ID principal, which would be passed over for DefaultAzureCredential', async () => {
    const problems = await problemsOf(
      '{ type: azure-openai, baseUrl: "https://r.openai.azure.com", entra: { tenantId: t, clientSecret: entra-secret-2 } }',
    );
    expect(problems).toEqual(['providers.cloud.entra: needs tenantId, clientId and clientSecret (missing clientId)']);
    expect(problems.join('\n')).not.toContain('entra-secret-2');
  });

  it('refuses apiKey and entra together (the key would be sent, the principal never used)', async () => {
    const problems = await problemsOf(
      '{ type: azure-openai, baseUrl: "https://r.openai.azure.com", apiKey: az-secret-1, entra: { tenantId: t, clientId: c, clientSecret: s } }',
    );
    expect(problems).toEqual(['providers.cloud.entra: give apiKey or entra, not both']);
  });

  it('keeps a whole principal', async () => {
    const { config } = await loadConfig({
      path: await configWithProvider(
        '{ type: azure-openai, baseUrl: "https://r.openai.azure.com", entra: { tenantId: t, clientId: c, clientSecret: s } }',
      ),
      environment: {},
    });
    expect(config.providers.cloud?.entra).toEqual({ tenantId: 't', clientId: 'c', clientSecret: 's' });
  });
});

describe('Bedrock', () => {
  it.each([
    ['secretAccessKey', '{ type: bedrock, region: us-east-1, secretAccessKey: aws-secret-3 }'],
    ['sessionToken', '{ type: bedrock, region: us-east-1, sessionToken: aws-token-4 }'],
  ])('refuses %s without accessKeyId (the default chain would sign instead)', async (field, provider) => {
    const problems = await problemsOf(provider);
    expect(problems).toEqual([`providers.cloud.${field}: needs accessKeyId beside it`]);
    expect(problems.join('\n')).not.toMatch(/aws-secret-3|aws-token-4/);
  });

  it('refuses a profile beside fixed credentials (the credentials would be used, the profile never)', async () => {
    expect(
      await problemsOf('{ type: bedrock, region: us-east-1, profile: ml-team, accessKeyId: AKIA1, secretAccessKey: aws-secret-3 }'),
    ).toEqual(['providers.cloud.profile: give profile or accessKeyId and secretAccessKey, not both']);
  });

  it('still names a missing region and a key id without its secret', async () => {
    expect(await problemsOf('{ type: bedrock }')).toEqual(['providers.cloud.region: required for a bedrock provider']);
    expect(await problemsOf('{ type: bedrock, region: us-east-1, accessKeyId: AKIA1 }')).toEqual([
      'providers.cloud.secretAccessKey: required with accessKeyId',
    ]);
  });
});

describe('Vertex AI keyFile', () => {
  it('refuses a key file that is not there, naming where it was looked for', async () => {
    const problems = await problemsOf('{ type: vertex, project: p, keyFile: nowhere.json }');
    expect(problems).toEqual([`providers.cloud.keyFile: cannot read ${join(directory, 'nowhere.json')} (ENOENT)`]);
  });

  it('refuses a JSON key file that does not parse, without quoting it', async () => {
    await writeFile(join(directory, 'broken.json'), '{"private_key": "-----BEGIN PRIVATE KEY-----\\nMIIsecret-5');
    const problems = await problemsOf('{ type: vertex, project: p, keyFile: broken.json }');
    expect(problems).toEqual([
      `providers.cloud.keyFile: ${join(directory, 'broken.json')} is not a JSON credentials file (a service account's key or a workload identity federation config)`,
    ]);
    expect(problems.join('\n')).not.toContain('secret-5');
  });

  it('refuses a key file beside a fixed accessToken (the token would be used, the file never)', async () => {
    await writeFile(join(directory, 'unused.json'), JSON.stringify({ type: 'service_account' }));
    expect(await problemsOf('{ type: vertex, project: p, keyFile: unused.json, accessToken: ya29-token-6 }')).toEqual([
      'providers.cloud.accessToken: give keyFile or accessToken, not both',
    ]);
  });

  it('takes a readable key file', async () => {
    await writeFile(join(directory, 'service-account.json'), JSON.stringify({ type: 'service_account', project_id: 'p' }));
    const { config } = await loadConfig({
      path: await configWithProvider('{ type: vertex, project: p, keyFile: service-account.json }'),
      environment: {},
    });
    expect(config.providers.cloud?.vertex?.keyFile).toBe(join(directory, 'service-account.json'));
  });
});
