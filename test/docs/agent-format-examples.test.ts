/**
 * The examples of docs/tool-calling.md ("How each format writes a two-call reply") are what the gateway
 * writes: each block, with the format or tags named on the line before it, is compared with the content
 * of a real request through the gateway with that `agent_format`, over an upstream that answers with the
 * page's text and two calls.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { gatewayOverFakeOpenAi } from '../helpers/gateway-with-openai-upstream.js';
import { testProvider } from '../helpers/start-gateway.js';

const page = readFileSync(new URL('../../docs/tool-calling.md', import.meta.url), 'utf8');
const section = page.slice(page.indexOf('### How each format writes a two-call reply'), page.indexOf('### The return trip'));

type Example = { format: string; tags?: string; text: string };

/** Each fenced block of the section, with the format named in backticks at the start of the paragraph before it. */
function examples(): Example[] {
  const found: Example[] = [];
  for (const match of section.matchAll(/^(`[^\n]*)\n\n(`{3,4})\n([\s\S]*?)\n\2$/gm)) {
    const [, introduction, , text] = match as unknown as [string, string, string, string];
    const tags = /^`tool_call_tags: "([^"]+)"`/.exec(introduction)?.[1];
    const format = tags === undefined ? (/^`(\w+)`/.exec(introduction)?.[1] as string) : 'custom';
    found.push({ format, text, ...(tags === undefined ? {} : { tags }) });
  }
  return found;
}

const pageExamples = examples();

const { upstream, gateway } = await gatewayOverFakeOpenAi((upstream) => ({
  providers: { local: testProvider('openai-compatible', `${upstream.url}/v1`, { toolCalling: 'native' }) },
}));

describe("the tool-calling page's agent-format examples", () => {
  it('finds one example per text format', () => {
    expect(pageExamples.map((example) => example.format)).toEqual([
      'qwen3',
      'llama3',
      'xml',
      'custom',
      'hermes',
      'gemma',
      'mistral',
      'harmony',
    ]);
  });

  it.each(pageExamples.map((example) => [example.tags ? `${example.format} ${example.tags}` : example.format, example] as const))(
    '%s is what the gateway writes',
    async (_name, example) => {
      upstream.enqueue({
        type: 'chat',
        content: 'Checking.',
        toolCalls: [
          { name: 'get_weather', arguments: { city: 'Quito' } },
          { name: 'get_time', arguments: { timezone: 'America/Lima' } },
        ],
      });
      const tool = (name: string, property: string) => ({
        type: 'function',
        function: { name, parameters: { type: 'object', properties: { [property]: { type: 'string' } } } },
      });
      const response = await fetch(`${gateway.baseUrl}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          model: 'local/m',
          messages: [{ role: 'user', content: 'Weather and time in Quito?' }],
          tools: [tool('get_weather', 'city'), tool('get_time', 'timezone')],
          agent_format: example.format,
          ...(example.tags ? { tool_call_tags: example.tags } : {}),
        }),
      });
      expect(response.status).toBe(200);
      const completion = (await response.json()) as { choices: { message: { content: string } }[] };
      expect(completion.choices[0]?.message.content).toBe(example.text);
    },
  );
});
