/** The registry: every detectable family is registered, and parsers are independent. */
import { describe, expect, it } from 'vitest';
import { knownFamilies } from '../../src/config/detect-model-family.js';
import { createToolFormatRegistry } from '../../tool-formats/index.js';

describe('createToolFormatRegistry', () => {
  it('has a ToolFormat for every family the model table can detect, under its own id', () => {
    const registry = createToolFormatRegistry();
    for (const family of knownFamilies) expect(registry.has(family), `family '${family}' is detected but not registered`).toBe(true);
    for (const [family, format] of registry) expect(format.family).toBe(family);
  });

  it('has name patterns for every registered family: a family is one folder, one familySpecs line and one model-families.json line', () => {
    const detectable = new Set(knownFamilies);
    for (const family of createToolFormatRegistry().keys())
      expect(detectable.has(family), `family '${family}' is registered but no model name detects it`).toBe(true);
  });

  it('builds independent parsers', () => {
    const format = createToolFormatRegistry().get('hermes')!;
    const tools = [{ name: 'get_time', parameters: {} }];
    const first = format.createParser(tools);
    const second = format.createParser(tools);
    first.push('<tool_call>{"name": "get_time"');
    expect(second.push('hello')).toEqual([{ type: 'text', text: 'hello' }]);
    expect(first.push('}</tool_call>')).toEqual([{ type: 'tool-call', name: 'get_time', arguments: '{}' }]);
  });
});
