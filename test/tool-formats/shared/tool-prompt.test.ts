import { describe, expect, it } from 'vitest';
import { argumentsForRendering, formatJson } from '../../../tool-formats/shared/format-json.js';
import { describeToolChoice, renderToolPrompt, selectToolsForChoice } from '../../../tool-formats/shared/tool-prompt.js';
import { documentedWeather, getTime, searchWeb } from '../helpers/tools.js';

const wording = {
  introduction: 'INTRO',
  renderToolList: (tools: readonly { name: string }[]) => tools.map((tool) => tool.name).join(','),
  callInstructions: 'HOW',
  resultInstructions: 'RESULTS',
};
const renderCall = (call: { name: string; arguments: string }) => `<${call.name} ${call.arguments}>`;

describe('renderToolPrompt', () => {
  it('lays out the sections in a fixed order and skips empty ones', () => {
    expect(renderToolPrompt([getTime, searchWeb], { type: 'auto' }, wording, renderCall)).toBe(
      'INTRO\n\nget_time,search_web\n\nHOW\n\nRESULTS',
    );
    expect(renderToolPrompt([documentedWeather], { type: 'required' }, wording, renderCall)).toBe(
      [
        'INTRO',
        'get_weather',
        'HOW',
        'When to use the tools:\n- get_weather: When the user asks about current conditions somewhere. (tags: weather, travel)',
        'Examples of tool calls:\n- get_weather: Weather in Paris\n<get_weather {"city":"Paris"}>\n- get_weather\n<get_weather {"city":"Oslo","unit":"celsius"}>',
        'RESULTS',
        'You must call at least one tool in this reply; do not answer without a tool call.',
      ].join('\n\n'),
    );
  });

  it('renders only the named tool for a named choice, and nothing without tools', () => {
    expect(selectToolsForChoice([getTime, searchWeb], { type: 'tool', name: 'get_time' })).toEqual([getTime]);
    expect(renderToolPrompt([], { type: 'auto' }, wording, renderCall)).toBe('');
    expect(describeToolChoice({ type: 'none' })).toBeUndefined();
  });
});

describe('formatJson', () => {
  it('prints JSON with Python json.dumps spacing, keeping key order and unicode', () => {
    expect(formatJson({ b: [1, { c: null }], a: 'é "q"', skipped: undefined })).toBe('{"b": [1, {"c": null}], "a": "é \\"q\\""}');
    expect(JSON.parse(formatJson({ x: [true, 1.5, 'a\nb'] }))).toEqual({ x: [true, 1.5, 'a\nb'] });
  });

  it('keeps non-JSON argument text as a string for rendering', () => {
    expect(argumentsForRendering('{"a":1}')).toEqual({ a: 1 });
    expect(argumentsForRendering('not json')).toBe('not json');
  });
});
