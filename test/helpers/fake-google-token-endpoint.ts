/**
 * Google's OAuth 2.0 token endpoint (`POST https://oauth2.googleapis.com/token`) for service accounts, as
 * https://developers.google.com/identity/protocols/oauth2/service-account#authorizingrequests describes it:
 * the JWT-bearer grant, whose assertion is an RS256 JWT signed with the account's private key, naming the
 * account (`iss`), the scopes (`scope`), this endpoint (`aud`) and at most an hour of validity. The fake
 * checks the signature against the public key of the key file it made, and answers an access token, or
 * Google's `invalid_grant` error. Run behind the intercepting proxy, so google-auth-library reaches it at
 * its real URL.
 */
import { createPublicKey, generateKeyPairSync, randomUUID, verify, type KeyObject } from 'node:crypto';
import type { LoopbackHandler } from './loopback-server.js';

export type ServiceAccountKey = { client_email: string; private_key_id: string; [field: string]: string };

export type FakeGoogleTokenEndpoint = {
  handler: LoopbackHandler;
  /** A new service account's JSON key file content (as the Cloud console downloads it), its key pair made here. */
  createServiceAccount(email: string, project: string): ServiceAccountKey;
  /** Every access token issued so far, with the account it went to. */
  issued: { token: string; account: string; scope: string }[];
};

const tokenUrl = 'https://oauth2.googleapis.com/token';

function decodePart(part: string | undefined): Record<string, unknown> | undefined {
  try {
    return JSON.parse(Buffer.from(part ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

export function fakeGoogleTokenEndpoint(): FakeGoogleTokenEndpoint {
  const publicKeys = new Map<string, KeyObject>();
  const issued: FakeGoogleTokenEndpoint['issued'] = [];

  /** What is wrong with an assertion, in Google's words where it has them; undefined when it is good. */
  function problemWith(assertion: string): { problem: string } | { account: string; scope: string } {
    const [header, payload, signature] = assertion.split('.');
    const claims = decodePart(payload);
    const account = typeof claims?.iss === 'string' ? claims.iss : '';
    const key = publicKeys.get(account);
    if (decodePart(header)?.alg !== 'RS256' || !claims || !key) return { problem: 'Invalid JWT: Token must be a short-lived token' };
    const signed = verify('RSA-SHA256', Buffer.from(`${header}.${payload}`), key, Buffer.from(signature ?? '', 'base64url'));
    if (!signed) return { problem: 'Invalid JWT Signature.' };
    const now = Date.now() / 1000;
    const issuedAt = Number(claims.iat);
    const expires = Number(claims.exp);
    if (claims.aud !== tokenUrl) return { problem: 'Invalid JWT: Failed audience check.' };
    if (!(expires > now && expires - issuedAt <= 3600)) return { problem: 'Invalid JWT: Token must be a short-lived token (60 minutes)' };
    if (typeof claims.scope !== 'string' || claims.scope === '') return { problem: 'Invalid OAuth scope or ID token audience provided.' };
    return { account, scope: claims.scope };
  }

  const handler: LoopbackHandler = (request, response) => {
    const form = new URLSearchParams(typeof request.body === 'string' ? request.body : '');
    const reply = (status: number, body: unknown): void =>
      void response.writeHead(status, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(body));
    if (request.method !== 'POST' || request.path !== '/token') return reply(404, { error: 'not_found' });
    if (form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer')
      return reply(400, { error: 'unsupported_grant_type', error_description: 'Invalid grant_type: ' + (form.get('grant_type') ?? '') });
    const outcome = problemWith(form.get('assertion') ?? '');
    if ('problem' in outcome) return reply(400, { error: 'invalid_grant', error_description: outcome.problem });
    const token = `ya29.c.${randomUUID()}`;
    issued.push({ token, ...outcome });
    reply(200, { access_token: token, expires_in: 3599, token_type: 'Bearer' });
  };

  function createServiceAccount(email: string, project: string): ServiceAccountKey {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    publicKeys.set(email, createPublicKey(publicKey.export({ type: 'spki', format: 'pem' })));
    return {
      type: 'service_account',
      project_id: project,
      private_key_id: randomUUID().replaceAll('-', ''),
      private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }) as string,
      client_email: email,
      client_id: '100000000000000000001',
      auth_uri: 'https://accounts.google.com/o/oauth2/auth',
      token_uri: tokenUrl,
      universe_domain: 'googleapis.com',
    };
  }

  return { handler, createServiceAccount, issued };
}
