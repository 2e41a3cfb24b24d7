/**
 * Gemini takes nothing but `$` keywords beside a `$ref` ("If $ref is set on a sub-schema, no other properties,
 * except for than those starting as a $, may be set.", GenerationConfig reference), and the fake refuses as the API
 * does. A field's description beside the reference to its type (Pydantic's and Zod's output) reaches Gemini with
 * the reference moved into a one-branch `anyOf`, in a response format and in a tool's parameters alike; a `$ref`
 * beside a union of its own cannot move so, and that response format goes into the prompt with a warning.
 */
import { expect, it } from 'vitest';
import { startFakeGeminiUpstream } from '../helpers/fake-gemini-upstream.js';
import { gatewayOverUpstream } from '../helpers/gateway-over-upstream.js';
import { testProvider } from '../helpers/start-gateway.js';

const setup = gatewayOverUpstream(startFakeGeminiUpstream, (url) => ({ google: testProvider('gemini', url, { apiKey: 'gemini-key' }) }));

const address = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };
/** An order whose `ship_to` field is described beside the reference to its type. */
const order = {
  $defs: { address },
  type: 'object',
  properties: { ship_to: { $ref: '#/$defs/address', description: 'Where to ship' } },
  required: ['ship_to'],
};
const movedShipTo = { description: 'Where to ship', anyOf: [{ $ref: '#/$defs/address' }] };

type Sent = {
  generationConfig?: { responseJsonSchema?: { properties?: Record<string, unknown> } };
  tools?: { functionDeclarations?: { parametersJsonSchema?: { properties?: Record<string, unknown> } }[] }[];
  systemInstruction?: unknown;
  contents?: unknown;
};
const lastSent = () => setup.upstream.generateRequests().at(-1)?.body as Sent;
const diagnosticsOf = (completion: unknown) =>
  (completion as { diagnostics?: { warnings?: { code: string; message: string }[] } }).diagnostics;

it('sends a response format with a description beside a $ref, the reference moved into an anyOf', async () => {
  setup.upstream.enqueue({ type: 'generate', chunks: [[{ text: '{"ship_to": {"city": "Lyon"}}' }]] });
  const completion = await setup.client.chat.completions.create({
    model: 'google/gemini-2.5-flash',
    messages: [{ role: 'user', content: 'An order as JSON' }],
    response_format: { type: 'json_schema', json_schema: { name: 'order', schema: order, strict: true } },
  });
  expect(JSON.parse(completion.choices[0]?.message.content ?? '')).toEqual({ ship_to: { city: 'Lyon' } });
  expect(lastSent().generationConfig?.responseJsonSchema?.properties?.['ship_to']).toEqual(movedShipTo);
});

it('sends a tool whose parameters have a description beside a $ref, the reference moved into an anyOf', async () => {
  setup.upstream.enqueue({ type: 'generate', chunks: [[{ functionCall: { name: 'place_order', args: { ship_to: { city: 'Lyon' } } } }]] });
  const completion = await setup.client.chat.completions.create({
    model: 'google/gemini-2.5-flash',
    messages: [{ role: 'user', content: 'Ship it to Lyon' }],
    tools: [{ type: 'function', function: { name: 'place_order', parameters: order } }],
  });
  expect(completion.choices[0]?.message.tool_calls?.[0]).toMatchObject({ function: { name: 'place_order' } });
  expect(lastSent().tools?.[0]?.functionDeclarations?.[0]?.parametersJsonSchema?.properties?.['ship_to']).toEqual(movedShipTo);
});

it('writes a response format with a $ref beside a union of its own into the prompt, with a warning', async () => {
  const schema = { ...order, properties: { ship_to: { $ref: '#/$defs/address', anyOf: [{ required: ['city'] }, { type: 'null' }] } } };
  setup.upstream.enqueue({ type: 'generate', chunks: [[{ text: '{"ship_to": {"city": "Lyon"}}' }]] });
  const completion = await setup.client.chat.completions.create({
    model: 'google/gemini-2.5-flash',
    messages: [{ role: 'user', content: 'An order as JSON' }],
    response_format: { type: 'json_schema', json_schema: { name: 'order', schema, strict: true } },
  });
  expect(lastSent().generationConfig?.responseJsonSchema).toBeUndefined();
  expect(JSON.stringify([lastSent().systemInstruction, lastSent().contents])).toContain('#/$defs/address');
  expect(diagnosticsOf(completion)?.warnings).toContainEqual({
    code: 'strict-schema-not-guaranteed',
    message: expect.stringContaining('a $ref stands beside an anyOf or oneOf') as string,
  });
});
