/**
 * The structured-outputs table (issue 29, Measure): schemas of increasing difficulty, each answered by a
 * fake upstream with realistic imperfections (code fences, trailing commas, prose before the JSON, a
 * wrong enum or type), whole and streamed, per upstream kind and lane; prints the fraction of replies
 * the client can use as schema-valid JSON after the gateway's handling (the content, or for a streamed
 * reply that needed mending the JSON in `diagnostics.response_format_error.json`), and the fraction that is either
 * valid or carries `diagnostics.response_format_error` (the "says why not" half of the contract).
 * Run: `node --import tsx bench/structured-outputs.ts`.
 */
import { Ajv } from 'ajv';
import { startFakeAnthropicUpstream } from '../test/helpers/fake-anthropic-upstream.js';
import { startFakeBedrock } from '../test/helpers/fake-bedrock-server.js';
import { startFakeGeminiUpstream } from '../test/helpers/fake-gemini-upstream.js';
import { startFakeOllamaUpstream } from '../test/helpers/fake-ollama-upstream.js';
import { startFakeOpenAiUpstream } from '../test/helpers/fake-openai-upstream.js';
import { startGateway, testProvider } from '../test/helpers/start-gateway.js';
import { renderMarkdownTable } from './markdown-table.js';

type Case = { name: string; schema: Record<string, unknown>; valid: unknown; wrong: unknown };

const cases: Case[] = [
  {
    name: 'flat',
    schema: { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer' } }, required: ['city', 'days'] },
    valid: { city: 'Paris', days: 3 },
    wrong: { city: 'Paris', days: 'three' },
  },
  {
    name: 'nested',
    schema: {
      type: 'object',
      properties: { trip: { type: 'object', properties: { from: { type: 'string' }, to: { type: 'string' } }, required: ['from', 'to'] } },
      required: ['trip'],
    },
    valid: { trip: { from: 'Oslo', to: 'Rome' } },
    wrong: { trip: { from: 'Oslo' } },
  },
  {
    name: 'enums',
    schema: { type: 'object', properties: { unit: { enum: ['celsius', 'fahrenheit'] } }, required: ['unit'] },
    valid: { unit: 'celsius' },
    wrong: { unit: 'kelvin' },
  },
  {
    name: 'arrays of objects',
    schema: {
      type: 'object',
      properties: {
        items: {
          type: 'array',
          items: {
            type: 'object',
            properties: { sku: { type: 'string' }, qty: { type: 'integer', minimum: 1 } },
            required: ['sku', 'qty'],
          },
        },
      },
      required: ['items'],
    },
    valid: {
      items: [
        { sku: 'a-1', qty: 2 },
        { sku: 'b-2', qty: 1 },
      ],
    },
    wrong: { items: [{ sku: 'a-1', qty: 0 }] },
  },
  {
    name: 'anyOf',
    schema: {
      type: 'object',
      properties: {
        shape: { anyOf: [{ type: 'object', properties: { radius: { type: 'number' } }, required: ['radius'] }, { type: 'string' }] },
      },
      required: ['shape'],
    },
    valid: { shape: { radius: 2.5 } },
    wrong: { shape: 7 },
  },
];

/** How models answer: the clean form and the imperfections seen in practice. */
const imperfections: { name: string; render: (value: unknown) => string }[] = [
  { name: 'clean', render: (value) => JSON.stringify(value) },
  { name: 'fenced', render: (value) => `\`\`\`json\n${JSON.stringify(value, null, 2)}\n\`\`\`` },
  { name: 'trailing comma', render: (value) => JSON.stringify(value).replace(/}$/, ',}') },
  { name: 'prose first', render: (value) => `Sure, here is the JSON:\n${JSON.stringify(value)}` },
  { name: 'wrong value', render: () => '' },
];

type Lane = { label: string; model: string; tools: boolean; enqueue(text: string): void };

const weatherTool = { type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: {} } } };

async function main(): Promise<void> {
  const openai = await startFakeOpenAiUpstream();
  const anthropic = await startFakeAnthropicUpstream();
  const ollama = await startFakeOllamaUpstream();
  const gemini = await startFakeGeminiUpstream();
  const bedrockKeys = { accessKeyId: 'AKIABENCH00000000001', secretAccessKey: 'bench-secret-00000000000000000000000000' };
  const bedrock = await startFakeBedrock({ region: 'us-east-1', ...bedrockKeys });
  const gateway = await startGateway({
    providers: {
      native: testProvider('openai-compatible', `${openai.url}/v1`, { toolCalling: 'native' }),
      prompted: testProvider('openai-compatible', `${openai.url}/v1`, { toolCalling: 'prompted' }),
      claude: testProvider('anthropic', anthropic.url, { apiKey: 'test' }),
      ollama: testProvider('ollama', ollama.url, { toolCalling: 'native' }),
      'ollama-prompted': testProvider('ollama', ollama.url, { toolCalling: 'prompted' }),
      gemini: testProvider('gemini', gemini.url, { apiKey: 'test' }),
      bedrock: testProvider('bedrock', bedrock.url, { region: 'us-east-1', ...bedrockKeys }),
    },
  });
  const lanes: Lane[] = [
    {
      label: 'openai-compatible · native',
      model: 'native/gpt-4.1',
      tools: false,
      enqueue: (text) => openai.enqueue({ type: 'chat', content: text }),
    },
    {
      label: 'openai-compatible · prompted (tools)',
      model: 'prompted/Qwen/Qwen3-8B',
      tools: true,
      enqueue: (text) => openai.enqueue({ type: 'chat', content: text }),
    },
    {
      label: 'anthropic · native',
      model: 'claude/claude-sonnet-4-5',
      tools: false,
      enqueue: (text) => anthropic.enqueue({ type: 'message', content: [{ type: 'text', text }] }),
    },
    {
      label: 'ollama · native',
      model: 'ollama/llama3.1:8b',
      tools: false,
      enqueue: (text) => ollama.enqueue({ type: 'chat', content: text }),
    },
    {
      label: 'ollama · prompted (tools)',
      model: 'ollama-prompted/qwen2.5:7b',
      tools: true,
      enqueue: (text) => ollama.enqueue({ type: 'chat', content: text }),
    },
    {
      label: 'gemini · native',
      model: 'gemini/gemini-2.5-flash',
      tools: false,
      enqueue: (text) => gemini.enqueue({ type: 'generate', chunks: [[{ text }]] }),
    },
    {
      label: 'bedrock · native (`outputConfig.textFormat`)',
      model: 'bedrock/anthropic.claude-sonnet-4-5-20250929-v1:0',
      tools: false,
      enqueue: (text) => bedrock.enqueue({ type: 'message', text }),
    },
  ];
  const ajv = new Ajv({ strict: false });
  const client = gateway.client();
  const rows: string[][] = [];
  try {
    for (const lane of lanes) {
      for (const streamed of [false, true]) {
        for (const testCase of cases) {
          const validate = ajv.compile(testCase.schema);
          let valid = 0;
          let accounted = 0;
          for (const imperfection of imperfections) {
            const text = imperfection.name === 'wrong value' ? JSON.stringify(testCase.wrong) : imperfection.render(testCase.valid);
            lane.enqueue(text);
            const body = {
              model: lane.model,
              messages: [{ role: 'user' as const, content: 'Answer in JSON.' }],
              response_format: {
                type: 'json_schema' as const,
                json_schema: { name: testCase.name.replace(/\W/g, '_'), schema: testCase.schema },
              },
              ...(lane.tools ? { tools: [weatherTool as never] } : {}),
            };
            let content = '';
            let diagnostics: { response_format_error?: { code: string; json?: string } } | undefined;
            if (streamed) {
              for await (const chunk of await client.chat.completions.create({ ...body, stream: true })) {
                content += chunk.choices[0]?.delta.content ?? '';
                diagnostics = (chunk as { diagnostics?: typeof diagnostics }).diagnostics ?? diagnostics;
              }
            } else {
              const completion = await client.chat.completions.create(body);
              content = completion.choices[0]?.message.content ?? '';
              diagnostics = (completion as { diagnostics?: typeof diagnostics }).diagnostics;
            }
            // A streamed reply that needed mending carries its JSON in diagnostics.response_format_error.json.
            const usable = diagnostics?.response_format_error?.json ?? content;
            let ok = false;
            try {
              ok = validate(JSON.parse(usable));
            } catch {
              ok = false;
            }
            if (ok) valid++;
            if (ok || diagnostics?.response_format_error) accounted++;
          }
          const total = imperfections.length;
          rows.push([lane.label, streamed ? 'streamed' : 'whole', testCase.name, `${valid}/${total}`, `${accounted}/${total}`]);
        }
      }
    }
  } finally {
    await gateway.close();
    await Promise.all([openai.close(), anthropic.close(), ollama.close(), gemini.close(), bedrock.close()]);
  }
  process.stdout.write(
    `Replies per cell: ${imperfections.map((entry) => entry.name).join(', ')}\n\n` +
      renderMarkdownTable(['upstream · lane', 'mode', 'schema', 'schema-valid JSON', 'valid or diagnosed'], rows) +
      '\n',
  );
}

await main();
