/** The tool-prompt cache: renders once per family, choice and tools; evicts the least recently used. */
import { describe, expect, it } from 'vitest';
import type { ToolChoice, ToolDefinition, ToolFormat } from '../../src/core/index.js';
import { RequestCaches } from '../../src/core/request-caches.js';
import { shareToolList } from '../../src/core/shared-tool-list.js';
import { ToolPromptCache } from '../../src/pipeline/tool-prompt-cache.js';

function countingFormat(family: string): ToolFormat & { renders: number } {
  const format = {
    family,
    renders: 0,
    renderTools(tools: ToolDefinition[], choice: ToolChoice) {
      format.renders++;
      return `${family}:${choice.type}:${tools.map((tool) => `${tool.name}=${tool.description ?? ''}`).join(',')}`;
    },
    renderHistory: (messages: never[]) => messages,
    renderCall: () => '',
    createParser: () => ({ push: () => [], finish: () => [] }),
  };
  return format as unknown as ToolFormat & { renders: number };
}

const weather: ToolDefinition = { name: 'get_weather', description: 'Weather.', parameters: { type: 'object' } };
const time: ToolDefinition = { name: 'get_time', parameters: {} };

describe('ToolPromptCache', () => {
  it('renders equal tools once, and again when the family, the choice or the tools differ', () => {
    const cache = new ToolPromptCache(new RequestCaches());
    const hermes = countingFormat('hermes');
    const first = cache.render(hermes, [weather, time], { type: 'auto' });
    const again = cache.render(hermes, [{ ...weather }, { ...time }], { type: 'auto' });
    expect(again).toBe(first);
    expect(hermes.renders).toBe(1);
    cache.render(hermes, [weather, time], { type: 'required' });
    cache.render(hermes, [weather], { type: 'auto' });
    expect(hermes.renders).toBe(3);
    const mistral = countingFormat('mistral');
    cache.render(mistral, [weather, time], { type: 'auto' });
    expect(mistral.renders).toBe(1);
  });

  it('renders only the named tool for a named tool_choice, and keeps the budget warnings', () => {
    const cache = new ToolPromptCache(new RequestCaches());
    const format = countingFormat('hermes');
    const long: ToolDefinition = { name: 'long', description: `${'Explains things. '.repeat(30)}`, parameters: {} };
    const rendered = cache.render(format, [weather, long], { type: 'tool', name: 'get_weather' });
    expect(rendered.prompt).toBe('hermes:tool:get_weather=Weather.');
    expect(rendered.warnings.map((warning) => warning.code)).toEqual(['tool-prompt-trimmed']);
  });

  it('evicts the least recently used entry beyond its capacity', () => {
    const cache = new ToolPromptCache(new RequestCaches({ toolPromptCapacity: 2 }));
    const format = countingFormat('hermes');
    cache.render(format, [weather], { type: 'auto' });
    cache.render(format, [time], { type: 'auto' });
    cache.render(format, [weather], { type: 'auto' });
    cache.render(format, [weather, time], { type: 'auto' });
    expect(format.renders).toBe(3);
    cache.render(format, [weather], { type: 'auto' });
    expect(format.renders).toBe(3);
    cache.render(format, [time], { type: 'auto' });
    expect(format.renders).toBe(4);
  });

  it('finds a known (deeply frozen) list by identity, without serialising it again, whatever the LRU evicted', () => {
    let serialisations = 0;
    // JSON.stringify calls toJSON: it counts how often the list is turned into a text key.
    const parameters = { type: 'object', toJSON: () => ((serialisations += 1), { type: 'object' }) };
    const known = shareToolList<ToolDefinition>([{ name: 'get_weather', parameters }]);
    const cache = new ToolPromptCache(new RequestCaches({ toolPromptCapacity: 1 }));
    const format = countingFormat('hermes');
    const first = cache.render(format, known, { type: 'auto' });
    expect(serialisations).toBe(1);
    cache.render(format, [time], { type: 'auto' });
    expect(cache.render(format, known, { type: 'auto' })).toBe(first);
    expect(serialisations).toBe(1);
    expect(format.renders).toBe(2);
    expect(Object.isFrozen(first.warnings)).toBe(true);
    cache.render(format, known, { type: 'required' });
    expect(format.renders).toBe(3);
    const copy = [{ name: 'get_weather', parameters }];
    cache.render(format, copy, { type: 'auto' });
    cache.render(format, copy, { type: 'auto' });
    expect(serialisations).toBe(4);
  });
});
