/** The agent_format text syntaxes: how each writes a two-call reply, reads its own writing back, and finds tool results. */
import { describe, expect, it } from 'vitest';
import type { AgentResultSegment, AgentTextSyntax } from '../../../src/core/index.js';
import { createAgentSyntaxRegistry } from '../../../tool-formats/agent-syntaxes/index.js';
import {
  gemmaResults,
  harmonyResults,
  llamaIpythonResults,
  mistralResults,
  taggedResults,
} from '../../../tool-formats/agent-syntaxes/result-splitters.js';
import { createToolFormatRegistry } from '../../../tool-formats/index.js';
import { mergeEvents } from '../helpers/chunking-invariance.js';
import { getTime, getWeather } from '../helpers/tools.js';

const registry = createAgentSyntaxRegistry(createToolFormatRegistry());
const tools = [getWeather, getTime];
const calls = [
  { name: 'get_weather', arguments: '{"city":"Quito","unit":"celsius"}' },
  { name: 'get_time', arguments: '{}' },
];

function parse(syntax: AgentTextSyntax, text: string) {
  const parser = syntax.createParser(tools);
  return mergeEvents([...parser.push(text), ...parser.finish()]);
}

describe.each([...registry.syntaxes.values(), registry.custom('[[CALL]]', '[[/CALL]]')])('agent syntax $id', (syntax) => {
  it('reads back what it writes, text around the calls kept', () => {
    const text = `Checking.\n${calls.map((call) => syntax.renderCall(call)).join('\n')}\nDone.`;
    const events = parse(syntax, text);
    expect(
      events
        .filter((event) => event.type === 'tool-call')
        .map((event) => event.type === 'tool-call' && [event.name, JSON.parse(event.arguments)]),
    ).toEqual(calls.map((call) => [call.name, JSON.parse(call.arguments)]));
    expect(
      events
        .flatMap((event) => (event.type === 'text' ? [event.text] : []))
        .join('')
        .trim(),
    ).toMatch(/^Checking\.\s+Done\.$/);
  });

  // A native upstream's arguments are not bounded on the way in: pretty-printing 100,000 levels overflowed the stack.
  it('writes a call whose arguments nest far too deep to re-format, without overflowing the stack', () => {
    const depth = 100_000;
    const deep = `{"city":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}}`;
    expect(syntax.renderCall({ name: 'get_weather', arguments: deep })).toContain('get_weather');
  });

  it('reads nothing as a call when the request offers no tools', () => {
    const parser = syntax.createParser([]);
    expect(parser.push(syntax.renderCall(calls[1] as (typeof calls)[number])).every((event) => event.type === 'text')).toBe(true);
  });
});

describe('two-call renderings', () => {
  const render = (id: string) => {
    const syntax = registry.syntaxes.get(id);
    if (!syntax) throw new Error(`no ${id}`);
    return calls.map((call) => syntax.renderCall(call)).join('\n');
  };

  it('qwen3 wraps indented JSON in <|tool_call|>', () => {
    expect(render('qwen3')).toMatchInlineSnapshot(`
      "<|tool_call|>
      {
        "name": "get_weather",
        "arguments": {
          "city": "Quito",
          "unit": "celsius"
        }
      }
      </|tool_call|>
      <|tool_call|>
      {
        "name": "get_time",
        "arguments": {}
      }
      </|tool_call|>"
    `);
  });

  it('llama3 and xml use <function_call> and <tool_call> the same way', () => {
    expect(render('llama3')).toBe(
      render('qwen3').replaceAll('<|tool_call|>', '<function_call>').replaceAll('</|tool_call|>', '</function_call>'),
    );
    expect(render('xml')).toBe(render('qwen3').replaceAll('<|tool_call|>', '<tool_call>').replaceAll('</|tool_call|>', '</tool_call>'));
  });

  it('gemma, mistral and harmony write each call with their family renderer, one call at a time', () => {
    expect(render('gemma')).toBe('```tool_code\nget_weather(city="Quito", unit="celsius")\n```\n```tool_code\nget_time()\n```');
    expect(render('mistral')).toBe(
      '[TOOL_CALLS][{"name": "get_weather", "arguments": {"city": "Quito", "unit": "celsius"}}]\n[TOOL_CALLS][{"name": "get_time", "arguments": {}}]',
    );
    expect(render('harmony')).toBe(
      '<|start|>assistant<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{"city": "Quito", "unit": "celsius"}<|call|>\n' +
        '<|start|>assistant<|channel|>commentary to=functions.get_time <|constrain|>json<|message|>{}<|call|>',
    );
  });

  it('hermes writes the Hermes template form, one line of JSON per call', () => {
    expect(render('hermes')).toMatchInlineSnapshot(`
      "<tool_call>
      {"name": "get_weather", "arguments": {"city": "Quito", "unit": "celsius"}}
      </tool_call>
      <tool_call>
      {"name": "get_time", "arguments": {}}
      </tool_call>"
    `);
  });
});

const results = (segments: AgentResultSegment[]) =>
  segments.map((segment) =>
    segment.type === 'result' ? { output: segment.output, ...(segment.name ? { name: segment.name } : {}) } : segment.text,
  );

describe('result splitters', () => {
  it('<tool_response> blocks, one newline on each side belonging to the wrapper', () => {
    expect(
      results(
        taggedResults(
          '<tool_response>',
          '</tool_response>',
        )('Here:\n<tool_response>\n{"a": 1}\n\n</tool_response>\n<tool_response>b</tool_response>'),
      ),
    ).toEqual(['Here:\n', { output: '{"a": 1}\n' }, '\n', { output: 'b' }]);
  });

  it('Llama ipython turns: JSON objects with output, or the template header', () => {
    expect(results(llamaIpythonResults('{"name": "get_time", "output": "12:00"}; {"output": {"temp": 20}}'))).toEqual([
      { output: '12:00', name: 'get_time' },
      { output: '{"temp":20}' },
    ]);
    expect(results(llamaIpythonResults('<|start_header_id|>ipython<|end_header_id|>\n\n12:00<|eot_id|>'))).toEqual([{ output: '12:00' }]);
    expect(results(llamaIpythonResults('{"answer": 42}'))).toEqual(['{"answer": 42}']);
    expect(results(llamaIpythonResults('Just text'))).toEqual(['Just text']);
  });

  it('Gemma ```tool_output fences, holding {"name", "output"} or the bare output', () => {
    expect(results(gemmaResults('```tool_output\n{"name": "get_time", "output": "12:00"}\n```\n```tool_output\n[1, 2]\n```'))).toEqual([
      { output: '12:00', name: 'get_time' },
      '\n',
      { output: '[1, 2]' },
    ]);
  });

  it('Harmony tool turns carry the tool name', () => {
    expect(results(harmonyResults('<|start|>functions.get_time to=assistant<|channel|>commentary<|message|>"12:00"<|end|>'))).toEqual([
      { name: 'get_time', output: '"12:00"' },
    ]);
  });

  it('Mistral [TOOL_RESULTS], with or without the v3 {"call_id", "content"} object', () => {
    expect(
      results(
        mistralResults(
          '[TOOL_RESULTS]{"call_id": "abc123def", "content": {"temp": 20}}[/TOOL_RESULTS][TOOL_RESULTS] 12:00 [/TOOL_RESULTS]',
        ),
      ),
    ).toEqual([{ output: '{"temp":20}' }, { output: '12:00' }]);
  });
});
