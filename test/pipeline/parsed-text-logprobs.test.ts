/**
 * Log probabilities through the prompted lane's parser (src/pipeline/parsed-text-logprobs.ts): content the
 * parser passes on as written keeps its tokens, for any grouping of tokens into deltas (a streamed reply's
 * chunks, or a whole reply's one delta); the tokens of markup that became a call, and of anything after
 * it, are not returned, and a warning says so.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EventList } from '../../src/core/event-list.js';
import type { StreamEvent } from '../../src/core/stream-event.js';
import type { TokenLogprob } from '../../src/core/token-logprob.js';
import type { ToolDefinition } from '../../src/core/tool-definition.js';
import { DiagnosticsCollector } from '../../src/pipeline/diagnostics-collector.js';
import { parseTextIntoCalls } from '../../src/pipeline/parse-text-into-calls.js';
import { createToolFormatRegistry } from '../../tool-formats/index.js';

const tools: ToolDefinition[] = [{ name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } }];
const hermes = createToolFormatRegistry().get('hermes');

function tokenOf(text: string, position: number): TokenLogprob {
  return { token: text, logprob: -position, bytes: [...Buffer.from(text, 'utf8')], topLogprobs: [] };
}

/** The tokens grouped into deltas at `cuts` (token positions), each delta carrying its own. */
function deltasOf(tokens: TokenLogprob[], cuts: number[]): StreamEvent[] {
  const bounds = [...new Set([0, ...cuts.filter((cut) => cut > 0 && cut < tokens.length), tokens.length])].sort((a, b) => a - b);
  return bounds.slice(1).map((end, position) => {
    const group = tokens.slice(bounds[position], end);
    return { type: 'text-delta', delta: group.map((token) => token.token).join(''), logprobs: group };
  });
}

async function parse(events: StreamEvent[], startsInReasoning = false) {
  if (!hermes) throw new Error('no hermes family');
  const diagnostics = new DiagnosticsCollector(tools);
  const parsed = parseTextIntoCalls(new EventList([...events, { type: 'finish', reason: { unified: 'stop' }, usage: {} }]), {
    createParser: (reasoning) => hermes.createParser(tools, { startsInReasoning: reasoning }),
    diagnostics,
    singleCall: false,
    startsInReasoning,
  });
  const out: StreamEvent[] = [];
  for await (const event of parsed) out.push(event);
  const texts = out.filter((event) => event.type === 'text-delta');
  return {
    text: texts.map((event) => event.delta).join(''),
    tokens: texts.flatMap((event) => event.logprobs ?? []),
    calls: out.filter((event) => event.type === 'tool-call-start').map((event) => event.name),
    warnings: (diagnostics.result()?.warnings ?? []).map((warning) => warning.code),
  };
}

const tokenText = fc.constantFrom('Hi', ' ', '<', 'tool', '_call', '>', 'a < b', '\n', 'é', '🙂', 'x');

describe('content the parser passes on as written', () => {
  it('keeps every token, in order, for any grouping into deltas', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(tokenText, { minLength: 1, maxLength: 12 }), fc.array(fc.nat(12)), async (texts, cuts) => {
        const text = texts.join('');
        // A complete opening tag would be a call's envelope: this property is about text that stays content.
        fc.pre(!text.includes('<tool_call>'));
        const tokens = texts.map(tokenOf);
        const result = await parse(deltasOf(tokens, cuts));
        expect(result.text).toBe(text);
        expect(result.tokens).toEqual(tokens);
        expect(result.warnings).toEqual([]);
      }),
    );
  });
});

describe('a reply that became a tool call', () => {
  const texts = ['Sure', '. ', '<tool_call>', '{"name": "get_weather", ', '"arguments": {"city": "Paris"}}', '</tool_call>'];

  it('keeps the tokens of the text before the call and says the rest are not returned, for any grouping', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.nat(texts.length)), async (cuts) => {
        const tokens = texts.map(tokenOf);
        const result = await parse(deltasOf(tokens, cuts));
        expect(result.calls).toEqual(['get_weather']);
        // Hermes keeps the text before a call as written; its tokens come back, none of the call's.
        expect(result.text).toBe('Sure. ');
        expect(result.tokens).toEqual(tokens.slice(0, 2));
        expect(result.warnings).toEqual(['logprobs-partial']);
      }),
    );
  });

  it('returns no token of text after the call', async () => {
    const tokens = [...texts, 'Done', '.'].map(tokenOf);
    const result = await parse(deltasOf(tokens, [1, 2, 3, 4, 5, 6, 7]));
    expect(result.text).toContain('Done.');
    expect(result.tokens).toEqual(tokens.slice(0, 2));
    expect(result.warnings).toEqual(['logprobs-partial']);
  });
});

describe('a reply the parser read reasoning out of', () => {
  it('returns no token of the reasoning, and says what it could not return', async () => {
    const tokens = ['Let me think', '</think>', '\n\n', 'It is sunny.'].map(tokenOf);
    const result = await parse(deltasOf(tokens, [1, 2, 3]), true);
    expect(result.tokens.map((token) => token.token)).not.toContain('Let me think');
    expect(result.warnings).toEqual(['logprobs-partial']);
  });

  // The template opened the reasoning: the reply is `reasoning</think>answer`, and the parser passes the answer
  // on as written after removing the close tag.
  const texts = ['Let', ' me', ' think', '</think>', '\n\n', 'It', ' is', ' sunny', '.'];

  it("returns the answer's tokens after the close tag, for any grouping into deltas", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.nat(texts.length)), async (cuts) => {
        const tokens = texts.map(tokenOf);
        const result = await parse(deltasOf(tokens, cuts), true);
        expect(result.text).toBe('\n\nIt is sunny.');
        expect(result.tokens).toEqual(tokens.slice(4));
        expect(result.warnings).toEqual(['logprobs-partial']);
      }),
    );
  });

  it('returns no token that spans the close tag and the answer, nor the tag split into tokens', async () => {
    const tokens = ['Hmm', '</', 'think', '>\n\n', 'It', ' is', ' sunny', '.'].map(tokenOf);
    const result = await parse(deltasOf(tokens, [1, 2, 3, 4, 5]), true);
    expect(result.text).toBe('\n\nIt is sunny.');
    expect(result.tokens.map((token) => token.token)).toEqual(['It', ' is', ' sunny', '.']);
    expect(result.warnings).toEqual(['logprobs-partial']);
  });

  it('returns no token after a call that follows the reasoning', async () => {
    const tokens = ['Hmm', '</think>', 'Sure', '<tool_call>', '{"name": "get_weather", "arguments": {}}', '</tool_call>', 'Done'].map(
      tokenOf,
    );
    const result = await parse(deltasOf(tokens, [1, 2, 3, 4, 5, 6]), true);
    expect(result.calls).toEqual(['get_weather']);
    expect(result.tokens.map((token) => token.token)).toEqual(['Sure']);
    expect(result.warnings).toEqual(['logprobs-partial']);
  });
});

describe('a reply without log probabilities', () => {
  it('has none, and no warning', async () => {
    const result = await parse([{ type: 'text-delta', delta: 'Sure. <tool_call>{"name": "get_weather", "arguments": {}}</tool_call>' }]);
    expect(result.calls).toEqual(['get_weather']);
    expect(result.tokens).toEqual([]);
    expect(result.warnings).toEqual([]);
  });
});
