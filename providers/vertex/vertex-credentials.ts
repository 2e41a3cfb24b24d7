/**
 * Google Cloud credentials for Vertex AI: a fixed `accessToken` from config (what
 * `gcloud auth print-access-token` prints), else `google-auth-library`'s GoogleAuth with the
 * cloud-platform scope: a service-account `keyFile` (or any credential file GoogleAuth reads), or
 * Application Default Credentials (GOOGLE_APPLICATION_CREDENTIALS, `gcloud auth application-default
 * login`, the metadata server on GCE, GKE and Cloud Run). https://cloud.google.com/docs/authentication/application-default-credentials
 * The library caches each token until shortly before it expires.
 */
import type { ProviderConfig } from '../../src/config/config-types.js';
import { gatewayError } from '../../src/core/gateway-error.js';

/** What authenticates each call (GoogleAuth, or a test's own): `authorization`, and `x-goog-user-project` when the credential names a quota project. */
export type GoogleHeadersSource = { getRequestHeaders(): Promise<Headers> };

const cloudPlatformScope = 'https://www.googleapis.com/auth/cloud-platform';

export function vertexHeadersSource(config: ProviderConfig): GoogleHeadersSource {
  const vertex = config.vertex;
  const fixed = vertex?.accessToken;
  if (fixed) return { getRequestHeaders: async () => new Headers({ authorization: `Bearer ${fixed}` }) };
  // Loaded on the first call: the library is heap and start-up time a gateway without a Vertex provider never pays.
  let auth: Promise<GoogleHeadersSource> | undefined;
  const load = () =>
    (auth ??= import('google-auth-library').then(
      ({ GoogleAuth }) =>
        // The project is known, so GoogleAuth never asks Resource Manager for it (external-account credentials would).
        new GoogleAuth({
          scopes: [cloudPlatformScope],
          ...(vertex?.project ? { projectId: vertex.project } : {}),
          ...(vertex?.keyFile ? { keyFile: vertex.keyFile } : {}),
        }),
    ));
  return { getRequestHeaders: async () => (await load()).getRequestHeaders() };
}

/**
 * The headers of each call, through the library's `getRequestHeaders` rather than a bare token: user
 * credentials from `gcloud auth application-default login` carry a quota project, which Vertex AI
 * needs as `x-goog-user-project`. No credentials found is a clear 502 naming what to configure.
 */
export function vertexAuthorization(source: GoogleHeadersSource, provider: string): () => Promise<Record<string, string>> {
  return async () => {
    let headers: Headers;
    try {
      headers = await source.getRequestHeaders();
    } catch (error) {
      throw gatewayError('upstream_unavailable', {
        message: `Provider '${provider}': no Google Cloud credentials (${(error as Error).message}). Set GOOGLE_APPLICATION_CREDENTIALS, keyFile or accessToken.`,
      });
    }
    const record: Record<string, string> = {};
    headers.forEach((value, name) => (record[name] = value));
    if (!record.authorization)
      throw gatewayError('upstream_unavailable', { message: `Provider '${provider}': Google Cloud returned no access token.` });
    return record;
  };
}
