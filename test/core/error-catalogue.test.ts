// The error catalogue: errors built from it keep their status, type and code, and the README lists every code.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { errorCatalogue, type ErrorCatalogueEntry } from '../../src/core/error-catalogue.js';
import { gatewayError, invalidRequest, toGatewayError } from '../../src/core/gateway-error.js';

const entries = Object.entries(errorCatalogue) as [keyof typeof errorCatalogue, ErrorCatalogueEntry][];

describe('gatewayError', () => {
  it('takes status and type from the catalogue, and the code from the entry name unless the entry says otherwise', () => {
    const error = gatewayError('model_not_found', { message: "The model 'x' does not exist.", param: 'model' });
    expect([error.status, error.type, error.code, error.param, error.message]).toEqual([
      404,
      'invalid_request_error',
      'model_not_found',
      'model',
      "The model 'x' does not exist.",
    ]);
    expect(gatewayError('unknown_route', { message: 'Unknown route: GET /x' })).toMatchObject({
      status: 404,
      type: 'not_found_error',
      code: 'not_found',
    });
    expect(invalidRequest('bad', 'messages')).toMatchObject({ status: 400, type: 'invalid_request_error', code: null, param: 'messages' });
    expect(toGatewayError(new Error('boom'))).toMatchObject({
      status: 500,
      type: 'server_error',
      code: null,
      message: 'Internal error: boom',
    });
  });

  it('uses the default message of entries that have one', () => {
    expect(gatewayError('server_shutting_down', {}).message).toBe('The gateway is shutting down.');
    expect(gatewayError('invalid_api_key', {}).message).toBe('Missing or invalid API key.');
  });

  it('lets passed-on errors carry the status, type and code they were given', () => {
    const passed = gatewayError('upstream_http_error', {
      status: 422,
      type: 'invalid_request_error',
      code: null,
      message: 'no',
      upstreamStatus: 422,
    });
    expect([passed.status, passed.type, passed.code, passed.upstreamStatus]).toEqual([422, 'invalid_request_error', null, 422]);
    expect(gatewayError('scripted_error', { status: 503, message: 'overloaded' })).toMatchObject({
      status: 503,
      type: 'upstream_error',
      code: 'scripted_error',
    });
  });

  it('gives every entry an error status and every passed-on entry a usual one', () => {
    for (const [, entry] of entries) expect(entry.status >= 400 && entry.status < 600).toBe(true);
  });
});

describe('the error table in docs/endpoints.md', () => {
  const readme = readFileSync(new URL('../../docs/endpoints.md', import.meta.url), 'utf8');
  const table = readme.slice(readme.indexOf('#### Error codes'), readme.indexOf('### Time limits'));

  it('lists the status, type and code of every catalogued error', () => {
    const rows = table.split('\n').filter((line) => line.startsWith('| '));
    for (const [name, entry] of entries) {
      if (entry.passedOn) continue;
      const code = entry.code === undefined ? name : entry.code;
      const listed = rows.some(
        (row) => row.includes(`| ${entry.status} |`) && row.includes(`\`${entry.type}\``) && row.includes(`\`${String(code)}\``),
      );
      expect(listed, `${name}: ${entry.status} ${entry.type} ${String(code)}`).toBe(true);
    }
  });
});
