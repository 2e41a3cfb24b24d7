/** parseResponsesRequest around a known tool list: the shared neutral tools, and what stays per request. */
import { describe, expect, it } from 'vitest';
import { isSharedToolList, shareToolList } from '../../../src/core/shared-tool-list.js';
import { RequestCaches } from '../../../src/core/request-caches.js';
import { BodyValidators } from '../../../routes/shared/body-validator.js';

/** One set for the file, as the app has one. */
const caches = new RequestCaches();
const validators = new BodyValidators();
import { parseResponsesRequest } from '../../../routes/responses/parse-responses-request.js';
import { ResponseStore } from '../../../routes/responses/response-store.js';
import { inProcessResponses } from '../../../routes/responses/stored-responses.js';

const tools = shareToolList([
  { type: 'function', name: 'exec_command', parameters: { type: 'object', properties: { cmd: { type: 'string' } } } },
  { type: 'function', name: 'read_file', parameters: { type: 'object', properties: { path: { type: 'string' } } } },
  { type: 'custom', name: 'apply_patch' },
  { type: 'web_search' },
]);
const store = inProcessResponses(new ResponseStore());

function body(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { model: 'local/m', input: 'Hi', tools, store: false, ...extra };
}

describe('parseResponsesRequest with a known tool list', () => {
  it('gives every request the same frozen neutral tools, and each its own kinds and warnings', async () => {
    const first = await parseResponsesRequest(body(), store, validators, caches);
    const second = await parseResponsesRequest(body({ tool_choice: { type: 'web_search' } }), store, validators, caches);
    expect(second.input.tools).toBe(first.input.tools);
    expect(isSharedToolList(first.input.tools)).toBe(true);
    expect(first.toolKinds.custom.has('apply_patch')).toBe(true);
    expect(second.toolKinds.custom).not.toBe(first.toolKinds.custom);
    expect(first.warnings.map((warning) => warning.code)).toEqual(['unsupported-tool']);
    expect(second.warnings.map((warning) => warning.code)).toEqual(['unsupported-tool', 'unsupported-tool-choice']);
    // The echo keeps the tools exactly as the client sent them.
    expect(first.echo.tools).toBe(tools);
  });

  it('offers only the allowed tools of a request, leaving the shared list whole for the next', async () => {
    const allowed = await parseResponsesRequest(
      body({ tool_choice: { type: 'allowed_tools', mode: 'required', tools: [{ type: 'function', name: 'read_file' }] } }),
      store,
      validators,
      caches,
    );
    const plain = await parseResponsesRequest(body(), store, validators, caches);
    expect(allowed.input.tools?.map((tool) => tool.name)).toEqual(['read_file']);
    expect(allowed.input.toolChoice).toEqual({ type: 'required' });
    expect(plain.input.tools?.map((tool) => tool.name)).toEqual(['exec_command', 'read_file', 'apply_patch']);
    expect(plain.input.toolChoice).toBeUndefined();
  });

  it('refuses allowed_tools naming a function the request does not define, rather than offering nothing', async () => {
    const refused = parseResponsesRequest(
      body({ tool_choice: { type: 'allowed_tools', mode: 'auto', tools: [{ type: 'function', name: 'nope' }] } }),
      store,
      validators,
      caches,
    );
    await expect(refused).rejects.toMatchObject({ status: 400, param: 'tool_choice.tools', message: expect.stringContaining("'nope'") });
  });
});
