/**
 * Strict tools whose grammar Bedrock's compiler gives up on ("The compiled grammar is too large, …"): the same
 * request goes again with the tools without strict, each with a warning quoting the refusal, and the set is
 * remembered for the model, as on Claude's own API and Vertex AI (test/routes/response-format-too-complex.test.ts).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startFakeBedrock, type FakeBedrock } from '../../helpers/fake-bedrock-server.js';
import { startGateway, testProvider, type StartedGateway } from '../../helpers/start-gateway.js';

const credentials = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY' };
const claude = 'anthropic.claude-sonnet-4-5-20250929-v1:0';

/** Strict tools whose schemas together pass the fake's grammar limit; each alone is small. */
const tools = ['get_weather', 'get_forecast', 'get_tides'].map((name) => ({
  type: 'function' as const,
  function: {
    name,
    strict: true,
    parameters: {
      type: 'object',
      properties: { city: { type: 'string', description: 'The city, as its inhabitants spell it' }, days: { type: 'integer' } },
      required: ['city', 'days'],
      additionalProperties: false,
    },
  },
}));

let bedrock: FakeBedrock;
let gateway: StartedGateway;

beforeAll(async () => {
  bedrock = await startFakeBedrock({ region: 'us-east-1', ...credentials, grammarLimit: 400 });
  gateway = await startGateway({ providers: { bedrock: testProvider('bedrock', bedrock.url, { region: 'us-east-1', ...credentials }) } });
});

afterAll(async () => {
  await gateway.close();
  await bedrock.close();
});

type Spec = { toolSpec?: { strict?: boolean } };
const strictSent = (index: number) =>
  ((bedrock.requests[index]?.body as { toolConfig?: { tools?: Spec[] } }).toolConfig?.tools ?? []).map(
    (tool) => tool.toolSpec?.strict === true,
  );

it('goes again without strict, warns quoting the refusal, and sends that set without strict from then on', async () => {
  bedrock.respondWith(() => ({ type: 'message', toolUses: [{ name: 'get_weather', input: { city: 'Paris', days: 2 } }] }));
  const request = { model: `bedrock/${claude}`, messages: [{ role: 'user' as const, content: 'Weather in Paris?' }], tools };
  const completion = await gateway.client().chat.completions.create(request);
  const call = completion.choices[0]?.message.tool_calls?.[0];
  expect(call?.type === 'function' ? JSON.parse(call.function.arguments) : undefined).toEqual({ city: 'Paris', days: 2 });
  const warnings =
    (completion as unknown as { diagnostics?: { warnings?: { code: string; message: string }[] } }).diagnostics?.warnings ?? [];
  expect(warnings.filter((warning) => warning.code === 'strict-schema-not-guaranteed')).toHaveLength(3);
  expect(warnings).toContainEqual({
    code: 'strict-schema-not-guaranteed',
    message: expect.stringContaining('The compiled grammar is too large') as string,
  });
  expect([strictSent(0), strictSent(1)]).toEqual([
    [true, true, true],
    [false, false, false],
  ]);

  // Streamed, the remembered set goes without strict at once.
  let called = '';
  for await (const chunk of await gateway.client().chat.completions.create({ ...request, stream: true }))
    called += chunk.choices[0]?.delta.tool_calls?.[0]?.function?.name ?? '';
  expect(called).toBe('get_weather');
  expect(bedrock.requests).toHaveLength(3);
  expect(strictSent(2)).toEqual([false, false, false]);
});
