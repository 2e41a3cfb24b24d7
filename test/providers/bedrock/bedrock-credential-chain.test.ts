/**
 * Bedrock credentials from AWS's usual places, end to end in a real gateway process: a provider with no
 * credentials in its config takes the SDK's default chain, here `AWS_ACCESS_KEY_ID` and
 * `AWS_SECRET_ACCESS_KEY`; one with `profile` reads that profile from the shared credentials file
 * (`AWS_SHARED_CREDENTIALS_FILE`, https://docs.aws.amazon.com/sdkref/latest/guide/file-location.html).
 * Each fake Bedrock recomputes the Signature V4 with the one key pair it expects, so a request signed with
 * any other key (or none) is refused with 403.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeBedrock, type FakeBedrock } from '../../helpers/fake-bedrock-server.js';
import { freePort, GatewayProcesses, waitForHealth } from '../../helpers/gateway-process.js';

const fromEnvironment = { accessKeyId: 'AKIAENVIRONMENT00001', secretAccessKey: 'secret-from-the-environment-000000000000' };
const fromProfile = { accessKeyId: 'AKIAPROFILE000000002', secretAccessKey: 'secret-from-the-profile-00000000000000000' };
const model = 'anthropic.claude-sonnet-4-5-20250929-v1:0';

const processes = new GatewayProcesses();
let directory: string;
let environmentBedrock: FakeBedrock;
let profileBedrock: FakeBedrock;
let client: OpenAI;
let output: () => string;

beforeAll(async () => {
  directory = await mkdtemp(path.join(tmpdir(), 'interlingua-aws-'));
  environmentBedrock = await startFakeBedrock({ region: 'eu-west-1', ...fromEnvironment });
  profileBedrock = await startFakeBedrock({ region: 'eu-west-1', ...fromProfile });
  const credentialsFile = path.join(directory, 'credentials');
  await writeFile(
    credentialsFile,
    [
      '[default]',
      'aws_access_key_id = AKIANOTTHISONE000003',
      'aws_secret_access_key = not-this-one',
      '',
      '[team]',
      `aws_access_key_id = ${fromProfile.accessKeyId}`,
      `aws_secret_access_key = ${fromProfile.secretAccessKey}`,
      '',
    ].join('\n'),
  );
  const configFile = path.join(directory, 'config.yaml');
  await writeFile(
    configFile,
    [
      'providers:',
      `  bedrock-chain: { type: bedrock, region: eu-west-1, baseUrl: "${environmentBedrock.url}" }`,
      `  bedrock-team: { type: bedrock, region: eu-west-1, baseUrl: "${profileBedrock.url}", profile: team }`,
      `  bedrock-no-profile: { type: bedrock, region: eu-west-1, baseUrl: "${profileBedrock.url}", profile: nowhere }`,
    ].join('\n'),
  );
  const port = await freePort();
  const gateway = processes.start(['--config', configFile, '--port', String(port)], {
    AWS_ACCESS_KEY_ID: fromEnvironment.accessKeyId,
    AWS_SECRET_ACCESS_KEY: fromEnvironment.secretAccessKey,
    AWS_SHARED_CREDENTIALS_FILE: credentialsFile,
    AWS_CONFIG_FILE: path.join(directory, 'config'),
    // Never the instance metadata service: the chain must stop at what the test gave it.
    AWS_EC2_METADATA_DISABLED: 'true',
  });
  output = gateway.output;
  await waitForHealth(gateway, port);
  client = new OpenAI({ baseURL: `http://127.0.0.1:${port}/v1`, apiKey: 'unused', maxRetries: 0 });
}, 90_000);

afterAll(async () => {
  processes.killAll();
  await Promise.all([environmentBedrock?.close(), profileBedrock?.close()]);
  await rm(directory, { recursive: true, force: true });
});

describe('Bedrock credentials from the usual places', () => {
  it('no credentials in the config: the default chain signs with AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY', async () => {
    environmentBedrock.enqueue({ type: 'message', text: 'signed with the environment' });
    const completion = await client.chat.completions.create({
      model: `bedrock-chain/${model}`,
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(completion.choices[0]?.message.content).toBe('signed with the environment');
    expect(String(environmentBedrock.requests.at(-1)?.headers.authorization)).toContain(`Credential=${fromEnvironment.accessKeyId}/`);
  });

  it('profile: team signs with that profile of the shared credentials file, not the default one nor the environment', async () => {
    profileBedrock.enqueue({ type: 'message', text: 'signed with the profile' });
    const completion = await client.chat.completions.create({
      model: `bedrock-team/${model}`,
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(completion.choices[0]?.message.content).toBe('signed with the profile');
    expect(String(profileBedrock.requests.at(-1)?.headers.authorization)).toContain(`Credential=${fromProfile.accessKeyId}/`);
  });

  it('a profile the files do not have: a 502 naming AWS credentials and what to set, and nothing sent to Bedrock', async () => {
    const before = profileBedrock.requests.length;
    const failure = await client.chat.completions
      .create({ model: `bedrock-no-profile/${model}`, messages: [{ role: 'user', content: 'hi' }] })
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(failure).toBeInstanceOf(OpenAI.APIError);
    expect((failure as InstanceType<typeof OpenAI.APIError>).status).toBe(502);
    expect((failure as Error).message).toMatch(
      /Provider 'bedrock-no-profile': no AWS credentials \(.+\)\. Set accessKeyId and secretAccessKey, profile/s,
    );
    expect(profileBedrock.requests.length).toBe(before);
  });

  it('no secret reaches the log', () => {
    for (const secret of [fromEnvironment.secretAccessKey, fromProfile.secretAccessKey]) expect(output()).not.toContain(secret);
  });
});
