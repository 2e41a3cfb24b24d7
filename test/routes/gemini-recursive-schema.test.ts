/**
 * Recursive schemas and Gemini's `responseJsonSchema`, which unrolls cycles "only within non-required properties"
 * (GenerationConfig reference): a tree whose children are optional goes as it is; one whose cycle runs through
 * required properties only goes into the prompt, with a warning saying why, and does not cost the model its
 * native JSON mode for other schemas.
 */
import { expect, it } from 'vitest';
import { startFakeGeminiUpstream } from '../helpers/fake-gemini-upstream.js';
import { gatewayOverUpstream } from '../helpers/gateway-over-upstream.js';
import { testProvider } from '../helpers/start-gateway.js';

const setup = gatewayOverUpstream(startFakeGeminiUpstream, (url) => ({ google: testProvider('gemini', url, { apiKey: 'gemini-key' }) }));

/** A tree of named nodes; `childrenRequired` decides whether the recursion may stop. */
function tree(childrenRequired: boolean): Record<string, unknown> {
  return {
    $defs: {
      node: {
        type: 'object',
        properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#/$defs/node' } } },
        required: childrenRequired ? ['name', 'children'] : ['name'],
      },
    },
    $ref: '#/$defs/node',
  };
}

type Sent = { generationConfig?: { responseJsonSchema?: unknown }; systemInstruction?: unknown; contents?: unknown };
const lastSent = () => setup.upstream.generateRequests().at(-1)?.body as Sent;

async function ask(schema: Record<string, unknown>) {
  setup.upstream.enqueue({ type: 'generate', chunks: [[{ text: '{"name": "root", "children": [{"name": "leaf", "children": []}]}' }]] });
  return setup.client.chat.completions.create({
    model: 'google/gemini-2.5-flash',
    messages: [{ role: 'user', content: 'A small tree as JSON' }],
    response_format: { type: 'json_schema', json_schema: { name: 'tree', schema, strict: true } },
  });
}

const diagnosticsOf = (completion: unknown) =>
  (completion as { diagnostics?: { warnings?: { code: string; message: string }[]; response_format_error?: unknown } }).diagnostics;

it('a cycle through an optional property goes to responseJsonSchema as it is', async () => {
  const completion = await ask(tree(false));
  expect(lastSent().generationConfig?.responseJsonSchema).toEqual(tree(false));
  expect(diagnosticsOf(completion)?.response_format_error).toBeUndefined();
});

it('a cycle through required properties only goes into the prompt, with a warning, and the model keeps its native form', async () => {
  const before = setup.upstream.generateRequests().length;
  const completion = await ask(tree(true));
  const sent = lastSent();
  expect(setup.upstream.generateRequests().length - before).toBe(1);
  expect(sent.generationConfig?.responseJsonSchema).toBeUndefined();
  expect(JSON.stringify([sent.systemInstruction, sent.contents])).toContain('#/$defs/node');
  expect(JSON.parse(completion.choices[0]?.message.content ?? '')).toMatchObject({ name: 'root' });
  expect(diagnosticsOf(completion)?.warnings).toContainEqual({
    code: 'strict-schema-not-guaranteed',
    message: expect.stringContaining('comes back through required properties only') as string,
  });

  await ask(tree(false));
  expect(lastSent().generationConfig?.responseJsonSchema).toEqual(tree(false));
});
