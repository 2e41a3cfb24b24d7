/**
 * The cloud providers' own settings (Azure OpenAI, Vertex AI, Bedrock): what each needs, and the
 * combinations that would otherwise be half-used in silence. A credential given in a form the provider
 * cannot use would only show as a failed request later (a 502 per request, or the environment's
 * credentials taken instead of the ones written in the file), so it is refused at start, by
 * `--check-config` and on reload, naming the path. No message quotes a value: they may be secrets.
 */
import type { ProviderEntry } from './config-schema.js';
import { ConfigError } from './config-error.js';
import type { ProviderConfig } from './config-types.js';

/**
 * Azure OpenAI's `baseUrl` is the resource's endpoint; the gateway adds `/openai/v1/…` or
 * `/openai/deployments/…` itself (providers/azure-openai/azure-endpoint.ts). The base URL Azure's own
 * samples give the OpenAI SDK (`https://NAME.openai.azure.com/openai/v1/`) would otherwise reach
 * `/openai/v1/openai/v1/chat/completions`, a 404 on every request.
 */
const azureApiPath = /\/openai(?:\/v1|\/deployments(?:\/.*)?)?$/i;

export function normalizeAzureOpenAi(provider: ProviderConfig, settings: ProviderEntry): void {
  const problems: string[] = [];
  const path = `providers.${provider.name}`;
  if (azureApiPath.test(new URL(provider.baseUrl).pathname))
    problems.push(
      `${path}.baseUrl: the resource's endpoint without its API path (https://NAME.openai.azure.com, not …/openai or …/openai/v1); the gateway adds the path for apiVersion`,
    );
  const entra = settings.entra;
  if (entra) {
    // A partial principal would be passed over for DefaultAzureCredential (providers/azure-openai/entra-token.ts).
    const missing = (['tenantId', 'clientId', 'clientSecret'] as const).filter((field) => !entra[field]);
    if (missing.length) problems.push(`${path}.entra: needs tenantId, clientId and clientSecret (missing ${missing.join(', ')})`);
    // With a key, the key is sent and the principal never used.
    if (provider.apiKey) problems.push(`${path}.entra: give apiKey or entra, not both`);
    provider.entra = entra;
  }
  if (problems.length) throw new ConfigError(problems);
}

/** Vertex AI needs its project; its URL follows from the location unless `baseUrl` overrides it. */
export function normalizeVertex(provider: ProviderConfig, settings: ProviderEntry): void {
  if (typeof settings.project !== 'string') throw new ConfigError([`providers.${provider.name}.project: required for a vertex provider`]);
  const location = typeof settings.location === 'string' ? settings.location : 'us-central1';
  provider.vertex = { project: settings.project, location };
  if (typeof settings.keyFile === 'string') provider.vertex.keyFile = settings.keyFile;
  if (typeof settings.accessToken === 'string') provider.vertex.accessToken = settings.accessToken;
  // A fixed token is used before anything else (providers/vertex/vertex-credentials.ts): the key file would lie unused.
  if (provider.vertex.keyFile && provider.vertex.accessToken)
    throw new ConfigError([`providers.${provider.name}.accessToken: give keyFile or accessToken, not both`]);
  // https://cloud.google.com/vertex-ai/docs/reference/rest#service-endpoint: regional hosts, and one for `global`.
  if (!settings.baseUrl)
    provider.baseUrl = location === 'global' ? 'https://aiplatform.googleapis.com' : `https://${location}-aiplatform.googleapis.com`;
}

/** Bedrock needs its region; its URL follows from it unless `baseUrl` overrides it. */
export function normalizeBedrock(provider: ProviderConfig, settings: ProviderEntry): void {
  const region = typeof settings.region === 'string' ? settings.region : undefined;
  if (!region) throw new ConfigError([`providers.${provider.name}.region: required for a bedrock provider`]);
  provider.bedrock = { region };
  for (const name of ['profile', 'accessKeyId', 'secretAccessKey', 'sessionToken'] as const) {
    const value = settings[name];
    if (typeof value === 'string') provider.bedrock[name] = value;
  }
  const { accessKeyId, secretAccessKey, sessionToken } = provider.bedrock;
  if (accessKeyId && !secretAccessKey) throw new ConfigError([`providers.${provider.name}.secretAccessKey: required with accessKeyId`]);
  // Fixed credentials are used only as a pair (providers/bedrock/create-bedrock-adapter.ts): a secret or a
  // session token alone would be dropped, and the AWS default chain's credentials signed the requests instead.
  for (const [name, value] of [
    ['secretAccessKey', secretAccessKey],
    ['sessionToken', sessionToken],
  ] as const)
    if (value && !accessKeyId) throw new ConfigError([`providers.${provider.name}.${name}: needs accessKeyId beside it`]);
  // Fixed credentials are taken before a profile: the profile would lie unused.
  if (accessKeyId && provider.bedrock.profile)
    throw new ConfigError([`providers.${provider.name}.profile: give profile or accessKeyId and secretAccessKey, not both`]);
  // https://docs.aws.amazon.com/general/latest/gr/bedrock.html: the runtime endpoint of each region.
  if (!settings.baseUrl) provider.baseUrl = `https://bedrock-runtime.${region}.amazonaws.com`;
}
