/**
 * The Microsoft identity platform's endpoints that a confidential client (@azure/identity's
 * ClientSecretCredential, through MSAL) uses, at https://login.microsoftonline.com: the tenant's OpenID
 * configuration (`GET /{tenant}/v2.0/.well-known/openid-configuration`) and the client credentials grant
 * (`POST /{tenant}/oauth2/v2.0/token` with `client_id`, `client_secret`, `scope` and
 * `grant_type=client_credentials`), as https://learn.microsoft.com/entra/identity-platform/v2-oauth2-client-creds-grant-flow
 * describes them: an access token for a known client and secret, `invalid_client` (AADSTS7000215)
 * otherwise. Run behind the intercepting proxy, so the library reaches it at its real URL.
 */
import { randomUUID } from 'node:crypto';
import type { LoopbackHandler } from './loopback-server.js';

export type FakeEntraTokenEndpoint = {
  handler: LoopbackHandler;
  /** Every access token issued so far, with the tenant, client and scope it was for. */
  issued: { token: string; tenant: string; clientId: string; scope: string }[];
};

const host = 'https://login.microsoftonline.com';

function openIdConfiguration(tenant: string): Record<string, unknown> {
  const base = `${host}/${tenant}`;
  return {
    token_endpoint: `${base}/oauth2/v2.0/token`,
    token_endpoint_auth_methods_supported: ['client_secret_post', 'private_key_jwt', 'client_secret_basic'],
    jwks_uri: `${base}/discovery/v2.0/keys`,
    response_modes_supported: ['query', 'fragment', 'form_post'],
    subject_types_supported: ['pairwise'],
    id_token_signing_alg_values_supported: ['RS256'],
    response_types_supported: ['code', 'id_token', 'code id_token', 'id_token token'],
    scopes_supported: ['openid', 'profile', 'email', 'offline_access'],
    issuer: `${base}/v2.0`,
    authorization_endpoint: `${base}/oauth2/v2.0/authorize`,
    device_authorization_endpoint: `${base}/oauth2/v2.0/devicecode`,
    end_session_endpoint: `${base}/oauth2/v2.0/logout`,
    tenant_region_scope: 'EU',
    cloud_instance_name: 'microsoftonline.com',
    cloud_graph_host_name: 'graph.windows.net',
    msgraph_host: 'graph.microsoft.com',
  };
}

/** `clients`: each accepted client id and its secret. */
export function fakeEntraTokenEndpoint(clients: Record<string, string>): FakeEntraTokenEndpoint {
  const issued: FakeEntraTokenEndpoint['issued'] = [];
  const handler: LoopbackHandler = (request, response) => {
    const reply = (status: number, body: unknown): void =>
      void response.writeHead(status, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(body));
    const url = new URL(request.path, host);
    const configuration = /^\/([^/]+)\/v2\.0\/\.well-known\/openid-configuration$/.exec(url.pathname);
    if (request.method === 'GET' && configuration) return reply(200, openIdConfiguration(configuration[1] as string));
    const token = /^\/([^/]+)\/oauth2\/v2\.0\/token$/.exec(url.pathname);
    if (request.method !== 'POST' || !token) return reply(404, { error: 'not_found' });
    const form = new URLSearchParams(typeof request.body === 'string' ? request.body : '');
    const clientId = form.get('client_id') ?? '';
    if (form.get('grant_type') !== 'client_credentials')
      return reply(400, {
        error: 'unsupported_grant_type',
        error_description: 'AADSTS70003: The app requested an unsupported grant type.',
      });
    if (clients[clientId] === undefined || clients[clientId] !== form.get('client_secret'))
      return reply(401, {
        error: 'invalid_client',
        error_description: `AADSTS7000215: Invalid client secret provided. Ensure the secret being sent in the request is the client secret value, not the client secret ID, for a secret added to app '${clientId}'.`,
        error_codes: [7000215],
      });
    const accessToken = `eyJ0eXAiOiJKV1QiLCJhbGciOiJSUzI1NiJ9.${Buffer.from(randomUUID()).toString('base64url')}.fake`;
    issued.push({ token: accessToken, tenant: token[1] as string, clientId, scope: form.get('scope') ?? '' });
    reply(200, { token_type: 'Bearer', expires_in: 3599, ext_expires_in: 3599, access_token: accessToken });
  };
  return { handler, issued };
}
