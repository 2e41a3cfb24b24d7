/**
 * The tool-call routes' live answers validate against openapi.yaml: each status they give is documented
 * for the route, and each body matches the schema documented for that status.
 */
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { startGateway, type StartedGateway } from '../../helpers/start-gateway.js';

type Operation = { responses: Record<string, { $ref?: string; content?: { 'application/json': { schema: unknown } } }> };
type Document = {
  paths: Record<string, Record<string, Operation>>;
  components: { responses: Record<string, { content: { 'application/json': { schema: unknown } } }>; schemas: Record<string, unknown> };
};

const document = parse(readFileSync(new URL('../../../openapi.yaml', import.meta.url), 'utf8')) as Document;
// Formats (date-time) are not checked: ajv-formats is no dependency of the project.
const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
// `#/components/schemas/…` references resolve inside the whole document.
ajv.addSchema({ ...document, $id: 'openapi' });

const clientKey = 'sk-inspector-openapi-1';
let gateway: StartedGateway;

beforeAll(async () => {
  gateway = await startGateway({
    server: { apiKeys: [{ key: clientKey, name: 'tester', models: ['demo/qwen3-8b'] }] },
    providers: { demo: { type: 'scripted' } },
    debug: { recentReplies: 3 },
  });
});

afterAll(async () => {
  await gateway?.close();
});

function schemaFor(path: string, method: string, status: number): unknown {
  const response = document.paths[path]?.[method]?.responses[String(status)];
  expect(response, `openapi.yaml documents ${status} for ${method.toUpperCase()} ${path}`).toBeDefined();
  const name = response?.$ref?.replace('#/components/responses/', '');
  if (name) return { $ref: `openapi#/components/responses/${name}/content/application~1json/schema` };
  const pointer = ['paths', path.replaceAll('/', '~1'), method, 'responses', String(status), 'content', 'application~1json', 'schema'];
  return { $ref: `openapi#/${pointer.join('/')}` };
}

async function check(path: string, expectedStatus: number, options: { body?: string; key?: string | null; query?: string } = {}) {
  const method = options.body === undefined ? 'get' : 'post';
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (options.key !== null) headers.authorization = `Bearer ${options.key ?? clientKey}`;
  const response = await fetch(`${gateway.baseUrl}${path}${options.query ?? ''}`, {
    method: method.toUpperCase(),
    headers,
    ...(options.body === undefined ? {} : { body: options.body }),
  });
  expect(response.status, `${method} ${path}`).toBe(expectedStatus);
  const body: unknown = await response.json();
  const validate = ajv.compile(schemaFor(path, method, expectedStatus) as object);
  expect(validate(body) ? [] : validate.errors, JSON.stringify(body).slice(0, 300)).toEqual([]);
  return body;
}

const tools = [
  { type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } },
];

describe('the tool-call routes against openapi.yaml', () => {
  it('parse: a parsed reply, a refused call, and each error status', async () => {
    const text = 'Sure.<tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}}</tool_call>';
    await check('/v1/tool-calls/parse', 200, { body: JSON.stringify({ model: 'demo/qwen3-8b', text, tools, chunking: [1, 3] }) });
    const refused = '<tool_call>{"name": "launch", "arguments": {}}</tool_call>';
    await check('/v1/tool-calls/parse', 200, { body: JSON.stringify({ family: 'hermes', text: refused, tools }) });
    await check('/v1/tool-calls/parse', 400, { body: JSON.stringify({ family: 'klingon', text: 'x' }) });
    await check('/v1/tool-calls/parse', 401, { body: JSON.stringify({ family: 'hermes', text: 'x' }), key: null });
    await check('/v1/tool-calls/parse', 403, { body: JSON.stringify({ model: 'demo/gpt-oss-20b', text: 'x' }) });
    await check('/v1/tool-calls/parse', 413, { body: JSON.stringify({ family: 'hermes', text: 'a'.repeat(33 * 1024 * 1024) }) });
  });

  it('render: the tool prompt, the history and every agent_format', async () => {
    const messages = [
      { role: 'user', content: 'Weather?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{}' } }],
      },
      { role: 'tool', tool_call_id: 'call_1', content: '21' },
    ];
    await check('/v1/tool-calls/render', 200, {
      body: JSON.stringify({ family: 'qwen3-coder', tools, tool_choice: 'required', messages }),
    });
    await check('/v1/tool-calls/render', 400, { body: JSON.stringify({ family: 'hermes', tool_choice: 'sometimes' }) });
    await check('/v1/tool-calls/render', 403, { body: JSON.stringify({ model: 'demo/gpt-oss-20b' }) });
  });

  it('families and recent replies', async () => {
    await check('/v1/tool-calls/families', 200, { query: '?model=demo/qwen3-8b' });
    await check('/v1/tool-calls/families', 403, { query: '?model=demo/gpt-oss-20b' });
    await gateway
      .client(clientKey)
      .chat.completions.create({ model: 'demo/qwen3-8b', messages: [{ role: 'user', content: 'Weather?' }], tools: tools as never });
    const recent = (await check('/v1/tool-calls/recent', 200)) as { data: unknown[] };
    expect(recent.data).toHaveLength(1);
    await check('/v1/tool-calls/recent', 401, { key: null });
  });
});
