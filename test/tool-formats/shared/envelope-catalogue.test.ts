import { describe, expect, it } from 'vitest';
import { familySpecs } from '../../../tool-formats/index.js';
import type { BodyGrammar } from '../../../tool-formats/shared/body-grammar.js';
import { coerceArgumentsBySchema } from '../../../tool-formats/shared/coerce-by-schema.js';
import { createEnvelopeCatalogue, type FamilySyntax } from '../../../tool-formats/shared/envelope-catalogue.js';
import { taggedEnvelope } from '../../../tool-formats/shared/envelope.js';
import { jsonCallGrammar } from '../../../tool-formats/shared/json-call-grammar.js';
import { createReplyParser } from '../../../tool-formats/shared/reply-parser.js';
import { createToolRoster } from '../../../tool-formats/shared/tool-roster.js';
import { expectChunkingInvariant } from '../helpers/chunking-invariance.js';
import { getTime, getWeather, readFile } from '../helpers/tools.js';

/** A stand-in for phase 2's GLM: `<tool_call>NAME<arg_key>k</arg_key><arg_value>v</arg_value></tool_call>`. */
const argPairGrammar: BodyGrammar = {
  id: 'test-arg-pairs',
  accepts: (body) => /^[\w.-]+\s*(?:<arg_key>|$)/.test(body),
  decode(body, context) {
    // A cut-off body must not become a call: every key needs its value.
    if (body.split('<arg_key>').length !== body.split('</arg_value>').length)
      return { type: 'invalid', message: 'Unpaired <arg_key>', incomplete: true };
    const name = /^[\w.-]+/.exec(body)?.[0] ?? '';
    const raw: Record<string, string> = {};
    for (const match of body.matchAll(/<arg_key>([\s\S]*?)<\/arg_key>\s*<arg_value>([\s\S]*?)<\/arg_value>/g))
      raw[match[1] as string] = match[2] as string;
    const tool = context.roster.resolve(name);
    return {
      type: 'calls',
      calls: [{ type: 'call', name, arguments: tool === undefined ? raw : coerceArgumentsBySchema(raw, tool.parameters) }],
    };
  },
};

/** A stand-in for phase 2's Harmony recipient body: `NAME <|constrain|>json<|message|>{json}`. */
const recipientGrammar: BodyGrammar = {
  id: 'test-recipient',
  accepts: (body) => /^[\w.-]+[\s\S]*<\|message\|>/.test(body),
  decode(body, context) {
    const name = /^[\w.-]+/.exec(body)?.[0] ?? '';
    return jsonCallGrammar.decode(
      JSON.stringify({ name, arguments: body.slice(body.indexOf('<|message|>') + '<|message|>'.length) }),
      context,
    );
  },
};

const glmLike: FamilySyntax = {
  family: 'glm-like',
  envelopes: [taggedEnvelope('glm-like', '<tool_call>', '</tool_call>', [argPairGrammar])],
};
/** Its own marker: the real mistral family registers `[TOOL_CALLS]` with a custom scanner, and a shared marker must scan alike. */
const mistralLike: FamilySyntax = {
  family: 'mistral-like',
  envelopes: [
    {
      family: 'mistral-like',
      start: ['[CALLS]'],
      end: [],
      kind: 'explicit',
      body: { type: 'values', separator: ';' },
      endsAtReplyEnd: true,
      grammars: [jsonCallGrammar],
    },
  ],
  reasoningTags: [{ open: '[THINK]', close: '[/THINK]' }],
};

const catalogue = createEnvelopeCatalogue([...familySpecs, glmLike, mistralLike]);
const roster = createToolRoster([getWeather, getTime, readFile]);
const parse = (family: string, text: string) => expectChunkingInvariant(() => createReplyParser(catalogue.syntaxFor(family), roster), text);

describe('envelope catalogue', () => {
  it('gives every parser the envelopes other families registered', () => {
    expect(parse('hermes', '[CALLS][{"name": "get_time", "arguments": {}}]')).toEqual([
      { type: 'tool-call', name: 'get_time', arguments: '{}' },
    ]);
    expect(parse('pythonic', '<tool_call>get_weather<arg_key>city</arg_key><arg_value>Beijing</arg_value></tool_call>')).toEqual([
      { type: 'tool-call', name: 'get_weather', arguments: '{"city":"Beijing"}' },
    ]);
  });

  it('lets one start marker carry several body grammars, dispatching on the body shape', () => {
    const text =
      '<tool_call>\n{"name": "get_time", "arguments": {}}\n</tool_call><tool_call>read_file\n<arg_key>path</arg_key>\n<arg_value>10</arg_value>\n<arg_key>start_line</arg_key>\n<arg_value>10</arg_value>\n</tool_call>';
    const expected = [
      { type: 'tool-call', name: 'get_time', arguments: '{}' },
      { type: 'tool-call', name: 'read_file', arguments: '{"path":"10","start_line":10}' },
    ];
    expect(parse('hermes', text)).toEqual(expected);
    expect(parse('glm-like', text)).toEqual(expected);
  });

  it("reports unclosed envelopes with the owning family first, the parser's own", () => {
    expect(parse('glm-like', '<tool_call>get_weather<arg_key>ci')).toEqual([
      { type: 'tool-call-unparsed', format: 'glm-like', text: '<tool_call>get_weather<arg_key>ci', reason: 'unclosed' },
    ]);
    expect(parse('hermes', '<tool_call>{"name": "get_weather", "argu')).toMatchObject([{ format: 'hermes' }]);
  });

  it('shares reasoning tags too', () => {
    expect(parse('hermes', '[THINK]plan[/THINK]ok')).toEqual([
      { type: 'reasoning', text: 'plan' },
      { type: 'text', text: 'ok' },
    ]);
  });

  it("keeps family-scoped reasoning tags and framing to the family's own parser", () => {
    const phrasing: FamilySyntax = {
      family: 'phrasing',
      envelopes: [],
      reasoningTags: [{ open: 'My thoughts:', close: 'My answer:', scope: 'family' }],
      familyFramingTokens: ['<reply>'],
    };
    const scoped = createEnvelopeCatalogue([...familySpecs, phrasing]);
    const parseWith = (family: string, text: string) =>
      expectChunkingInvariant(() => createReplyParser(scoped.syntaxFor(family), roster), text);
    expect(parseWith('phrasing', 'My thoughts: weigh it. My answer: <reply>yes')).toEqual([
      { type: 'reasoning', text: ' weigh it. ' },
      { type: 'text', text: ' yes' },
    ]);
    expect(parseWith('hermes', 'My thoughts: weigh it. My answer: <reply>yes')).toEqual([
      { type: 'text', text: 'My thoughts: weigh it. My answer: <reply>yes' },
    ]);
    // A reply that starts inside reasoning is in the family's first tag, scoped or not.
    expect(
      expectChunkingInvariant(
        () => createReplyParser(scoped.syntaxFor('phrasing'), roster, { startsInReasoning: true }),
        'weigh it. My answer: yes',
      ),
    ).toEqual([
      { type: 'reasoning', text: 'weigh it. ' },
      { type: 'text', text: ' yes' },
    ]);
  });

  it('ends a values envelope with the reply or right after its JSON', () => {
    expect(parse('mistral-like', '[CALLS][{"name": "get_time", "arguments": {}}] and then text')).toEqual([
      { type: 'tool-call', name: 'get_time', arguments: '{}' },
      { type: 'text', text: ' and then text' },
    ]);
    expect(parse('mistral-like', '[CALLS]get_time {}')).toEqual([
      { type: 'tool-call-rejected', code: 'invalid_tool_syntax', message: expect.any(String), text: '[CALLS]get_time {}' },
    ]);
    expect(parse('mistral-like', '[CALLS][{"name": "get_time", "argu')).toMatchObject([
      { type: 'tool-call-unparsed', format: 'mistral-like' },
    ]);
  });

  it('drops framing tokens and reads Harmony-like channels with literal markers only', () => {
    const harmonyLike: FamilySyntax = {
      family: 'harmony-like',
      envelopes: [taggedEnvelope('harmony-like', '<|channel|>commentary to=functions.', '<|call|>', [recipientGrammar])],
      reasoningTags: [{ open: '<|channel|>analysis<|message|>', close: '<|end|>' }],
      framingTokens: ['<|start|>assistant', '<|channel|>final<|message|>', '<|return|>', '<|end|>'],
    };
    const harmonyCatalogue = createEnvelopeCatalogue([...familySpecs, harmonyLike]);
    const harmony = (text: string) =>
      expectChunkingInvariant(() => createReplyParser(harmonyCatalogue.syntaxFor('harmony-like'), roster), text);
    expect(
      harmony(
        '<|channel|>analysis<|message|>User asks weather; call tool.<|end|><|start|>assistant<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{"city": "Seattle"}<|call|>',
      ),
    ).toEqual([
      { type: 'reasoning', text: 'User asks weather; call tool.' },
      { type: 'tool-call', name: 'get_weather', arguments: '{"city":"Seattle"}' },
    ]);
    expect(
      harmony('<|channel|>analysis<|message|>Simple greeting.<|end|><|start|>assistant<|channel|>final<|message|>Hi there!<|return|>'),
    ).toEqual([
      { type: 'reasoning', text: 'Simple greeting.' },
      { type: 'text', text: 'Hi there!' },
    ]);
  });

  it('refuses a marker that is both a reasoning tag and an envelope', () => {
    const clash: FamilySyntax = { family: 'clash', envelopes: [taggedEnvelope('clash', '<think>', '</think>', [jsonCallGrammar])] };
    expect(() => createEnvelopeCatalogue([clash]).syntaxFor('clash')).toThrow(/two kinds of marker/);
    expect(() => catalogue.syntaxFor('nope')).toThrow(/Unknown/);
  });
});

describe('envelope catalogue: shared start markers', () => {
  const tagged: FamilySyntax = {
    family: 'tagged-one',
    envelopes: [taggedEnvelope('tagged-one', '<calls>', '</calls>', [jsonCallGrammar])],
  };

  it('merges a marker registered alike by two families (the grammars tell the bodies apart)', () => {
    const alike: FamilySyntax = {
      family: 'tagged-two',
      envelopes: [taggedEnvelope('tagged-two', '<calls>', ['</calls>', '<end>'], [argPairGrammar], { trailingEnd: ['</x>'] })],
    };
    expect(() => createEnvelopeCatalogue([tagged, alike])).not.toThrow();
  });

  it('is a load-time error, naming both families and the marker, when the body scanning differs', () => {
    const values: FamilySyntax = {
      family: 'values-one',
      envelopes: [
        {
          family: 'values-one',
          start: ['<calls>'],
          end: [],
          kind: 'explicit',
          body: { type: 'values', separator: ';' },
          grammars: [jsonCallGrammar],
        },
      ],
    };
    expect(() => createEnvelopeCatalogue([tagged, values])).toThrow(
      /"tagged-one" and "values-one" both register the start marker "<calls>" with different body scanning \(tagged, values\)/,
    );
    const candidate: FamilySyntax = {
      family: 'fenced',
      envelopes: [{ ...taggedEnvelope('fenced', '<calls>', '</calls>', [jsonCallGrammar]), kind: 'candidate' }],
    };
    expect(() => createEnvelopeCatalogue([tagged, candidate])).toThrow(/"tagged-one" and "fenced".*"<calls>".*kinds/);
    const otherSeparator: FamilySyntax = {
      family: 'values-two',
      envelopes: [{ ...values.envelopes[0]!, family: 'values-two', body: { type: 'values', separator: ',' } }],
    };
    expect(() => createEnvelopeCatalogue([values, otherSeparator])).toThrow(/value separators/);
    const custom = (family: string): FamilySyntax => ({
      family,
      envelopes: [
        {
          family,
          start: ['<calls>'],
          end: [],
          kind: 'explicit',
          body: {
            type: 'custom',
            createScanner: () => ({ scan: (input) => ({ type: 'closed', bodyEnd: input.length, end: input.length }) }),
          },
          grammars: [jsonCallGrammar],
        },
      ],
    });
    expect(() => createEnvelopeCatalogue([custom('custom-one'), custom('custom-two')])).toThrow(
      /"custom-one" and "custom-two".*body scanners/,
    );
  });

  it('lets two families each keep a marker of their own, read differently, when neither shows it to other parsers', () => {
    const scoped = (syntax: FamilySyntax): FamilySyntax => ({
      ...syntax,
      envelopes: syntax.envelopes.map((envelope) => ({ ...envelope, scope: 'family' })),
    });
    const candidate: FamilySyntax = {
      family: 'wrapped',
      envelopes: [{ ...taggedEnvelope('wrapped', '<calls>', '</calls>', [jsonCallGrammar]), kind: 'candidate' }],
    };
    expect(() => createEnvelopeCatalogue([scoped(tagged), scoped(candidate)])).not.toThrow();
    // One of them seen by every parser meets both: each pair is checked, not only the first registration.
    expect(() => createEnvelopeCatalogue([scoped(tagged), scoped(candidate), tagged])).toThrow(/"wrapped" and "tagged-one".*kinds/);
  });

  it('holds for every registered family', () => {
    expect(() => createEnvelopeCatalogue(familySpecs)).not.toThrow();
  });
});
