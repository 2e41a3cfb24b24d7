/**
 * Google Cloud access tokens for Vertex AI: a fixed `accessToken` from config (what
 * `gcloud auth print-access-token` prints), else `google-auth-library`'s GoogleAuth with the
 * cloud-platform scope: a service-account `keyFile`, or Application Default Credentials
 * (GOOGLE_APPLICATION_CREDENTIALS, `gcloud auth application-default login`, the metadata server on GCE,
 * GKE and Cloud Run). The library caches each token until shortly before it expires.
 */
import { GoogleAuth } from 'google-auth-library';
import type { ProviderConfig } from '../../src/config/config-types.js';
import { gatewayError } from '../../src/core/gateway-error.js';

/** What hands out a current access token (GoogleAuth, or a test's own). */
export type AccessTokenSource = { getAccessToken(): Promise<string | null | undefined> };

export function vertexTokenSource(config: ProviderConfig): AccessTokenSource {
  const fixed = config.vertex?.accessToken;
  if (fixed) return { getAccessToken: async () => fixed };
  const keyFile = config.vertex?.keyFile;
  return new GoogleAuth({ scopes: ['https://www.googleapis.com/auth/cloud-platform'], ...(keyFile ? { keyFile } : {}) });
}

/** The bearer header of each call; no credentials found is a clear 502 naming what to configure. */
export function vertexAuthorization(source: AccessTokenSource, provider: string): () => Promise<Record<string, string>> {
  return async () => {
    let token: string | null | undefined;
    try {
      token = await source.getAccessToken();
    } catch (error) {
      throw gatewayError('upstream_unavailable', {
        message: `Provider '${provider}': no Google Cloud credentials (${(error as Error).message}). Set GOOGLE_APPLICATION_CREDENTIALS, keyFile or accessToken.`,
      });
    }
    if (!token) throw gatewayError('upstream_unavailable', { message: `Provider '${provider}': Google Cloud returned no access token.` });
    return { authorization: `Bearer ${token}` };
  };
}
