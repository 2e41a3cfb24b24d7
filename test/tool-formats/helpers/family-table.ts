/**
 * The table every prompted family passes: one harness, fed by the family's `<family>-cases.json`.
 * A family's own test file calls `testFamilyTable(format)` once and keeps only what is particular to it.
 */
// What the table holds, per family (every list optional, since not every family has every kind of case):
// - `prose`: replies that must come back as the same text, whole and in every split;
// - `unknownTool`: a call to a tool that no request offers (rejected as `unavailable_tool`);
// - `outsideRequestTools`: a call to `search_web` when the request offers only `get_weather`;
// - `malformed`: a call the family's syntax cannot read (rejected as `invalid_tool_syntax`);
// - `cutOff`: a reply that stops inside a call (reported unparsed, `unclosed`);
// - `chunking`: the samples and fragments of the chunk-split property tests.
// Besides the table, the harness checks what it can derive for any family: the ToolFormat contract,
// the renderings (one file a family under `renderings/`, reviewed in diffs), and calls to tools the
// request did not offer written in the family's own syntax.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { ParsedEvent, ParserOptions, ToolDefinition, ToolFormat } from '../../../src/core/index.js';
import { createToolFormatRegistry } from '../../../tool-formats/index.js';
import { expectChunkingInvariant, testChunkingInvariance } from './chunking-invariance.js';
import { historyTranscript, testFamilyContract } from './family-contract.js';
import { documentedWeather, getWeather, searchWeb, standardTools } from './tools.js';

export type FamilyCases = {
  prose?: string[];
  unknownTool?: string[];
  outsideRequestTools?: string[];
  malformed?: string[];
  cutOff?: string[];
  chunking?: { samples: string[]; fragments: string[]; numRuns?: number };
};

const familiesFolder = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Every `<family>-cases.json` under test/tool-formats, by family id. */
export function familyCaseFiles(): Map<string, string> {
  const files = new Map<string, string>();
  for (const entry of readdirSync(familiesFolder, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    for (const name of readdirSync(join(familiesFolder, entry.name))) {
      const match = /^(.+)-cases\.json$/.exec(name);
      if (match?.[1] !== undefined) files.set(match[1], join(familiesFolder, entry.name, name));
    }
  }
  return files;
}

function readFamilyCases(family: string): FamilyCases {
  const file = familyCaseFiles().get(family);
  if (file === undefined) throw new Error(`no ${family}-cases.json under test/tool-formats`);
  return JSON.parse(readFileSync(file, 'utf8')) as FamilyCases;
}

/** A family's format with the two helpers every family test uses: a chunking-checked parse and a call event. */
export function familyUnderTest(family: string): {
  format: ToolFormat;
  parse: (text: string, options?: ParserOptions) => ParsedEvent[];
  call: (name: string, callArguments: unknown, id?: string) => ParsedEvent;
} {
  const format = createToolFormatRegistry().get(family);
  if (format === undefined) throw new Error(`no family ${family}`);
  return {
    format,
    parse: (text, options = {}) => expectChunkingInvariant(() => format.createParser(standardTools, options), text),
    call: (name, callArguments, id) =>
      id === undefined
        ? { type: 'tool-call', name, arguments: JSON.stringify(callArguments) }
        : { type: 'tool-call', name, arguments: JSON.stringify(callArguments), id },
  };
}

/** The text of a reply's events, joined: what a client shows. */
export function textOf(events: readonly ParsedEvent[]): string {
  return events.flatMap((event) => (event.type === 'text' ? [event.text] : [])).join('');
}

/** Leaves call ids out, since the contract compares calls without them (Mistral and Kimi-K2 report ids). */
function withoutCallIds(format: ToolFormat): ToolFormat {
  const withoutId = (event: ParsedEvent): ParsedEvent =>
    event.type === 'tool-call' ? { type: 'tool-call', name: event.name, arguments: event.arguments } : event;
  return {
    ...format,
    createParser(tools, options) {
      const parser = format.createParser(tools, options);
      return { push: (text) => parser.push(text).map(withoutId), finish: () => parser.finish().map(withoutId) };
    },
  };
}

/** What the model reads: the tool list (auto and required), one call, and a conversation's history. */
export function renderings(format: ToolFormat): string {
  const sections = [
    ['Tools, tool choice auto', format.renderTools([documentedWeather, searchWeb], { type: 'auto' })],
    ['Tools, tool choice required', format.renderTools([documentedWeather, searchWeb], { type: 'required' })],
    ['One call', format.renderCall({ name: 'get_weather', arguments: '{"city":"Oslo"}' })],
    ['History', historyTranscript(format)],
  ];
  return `# ${format.family}: renderings\n\n${sections.map(([title, text]) => `## ${title}\n\n\`\`\`\`text\n${text}\n\`\`\`\`\n`).join('\n')}`;
}

const rejectedAs = (code: string) => [{ type: 'tool-call-rejected', code }];

export function testFamilyTable(format: ToolFormat): void {
  const { family } = format;
  const cases = readFamilyCases(family);
  const parse = (text: string, tools = standardTools) => expectChunkingInvariant(() => format.createParser(tools), text);

  testFamilyContract(withoutCallIds(format));

  describe(`${family}: the family table`, () => {
    it('renders tools, a call and a history as its renderings file shows', async () => {
      await expect(renderings(format)).toMatchFileSnapshot(join(familiesFolder, 'renderings', `${family}.md`));
    });

    // A family whose calls carry no marker (bare JSON, Python calls) reads a call to a tool it was not
    // offered as prose; every other family rejects it. Neither may make it a call.
    it('never makes a call of its own rendering of a call to a tool that was not offered', () => {
      const offers: [string, ToolDefinition[]][] = [
        ['delete_all_files', standardTools],
        ['search_web', [getWeather]],
      ];
      for (const [name, tools] of offers) {
        const rendered = format.renderCall({ name, arguments: '{"query":"x"}' });
        const events = parse(rendered, tools);
        if (events[0]?.type === 'text') expect(events).toEqual([{ type: 'text', text: rendered }]);
        else expect(events).toMatchObject(rejectedAs('unavailable_tool'));
      }
    });

    it.each(cases.prose ?? [])('keeps %j as text', (text) => {
      expect(parse(text)).toEqual([{ type: 'text', text }]);
    });
    it.each(cases.unknownTool ?? [])('rejects the unknown tool in %j', (text) => {
      expect(parse(text)).toMatchObject(rejectedAs('unavailable_tool'));
    });
    it.each(cases.outsideRequestTools ?? [])('rejects %j when the request offers only get_weather', (text) => {
      expect(parse(text, [getWeather])).toMatchObject(rejectedAs('unavailable_tool'));
    });
    it.each(cases.malformed ?? [])('rejects the unreadable call in %j', (text) => {
      expect(parse(text)).toMatchObject(rejectedAs('invalid_tool_syntax'));
    });
    it.each(cases.cutOff ?? [])('reports the cut-off call in %j as unparsed', (text) => {
      expect(parse(text)).toMatchObject([{ type: 'tool-call-unparsed', format: family, reason: 'unclosed' }]);
    });
  });

  if (cases.chunking !== undefined) {
    testChunkingInvariance({ name: family, createParser: () => format.createParser(standardTools), ...cases.chunking });
  }
}
