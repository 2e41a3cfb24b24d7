/** Earlier calls' arguments as the object that template-rendering servers need, the text kept when it is not one. */
import { describe, expect, it } from 'vitest';
import { argumentsObject, argumentsObjectText } from '../../providers/arguments-object.js';

describe('argumentsObject', () => {
  it('keeps an object, makes empty arguments {}, and holds anything else as its text', () => {
    expect(argumentsObject('{"city": "Paris"}')).toEqual({ city: 'Paris' });
    expect(argumentsObject('  ')).toEqual({});
    expect(argumentsObject('{"city": "Par')).toEqual({ arguments: '{"city": "Par' });
    expect(argumentsObject('["Paris"]')).toEqual({ arguments: '["Paris"]' });
    expect(argumentsObject('null')).toEqual({ arguments: 'null' });
    expect(argumentsObject('Paris')).toEqual({ arguments: 'Paris' });
  });

  it('as text: an object is sent byte for byte as it came, anything else as the object holding it', () => {
    const spaced = '{ "city" : "Paris" }';
    expect(argumentsObjectText(spaced)).toBe(spaced);
    expect(argumentsObjectText('')).toBe('{}');
    expect(JSON.parse(argumentsObjectText('{"city": "Par'))).toEqual({ arguments: '{"city": "Par' });
    expect(JSON.parse(argumentsObjectText('42'))).toEqual({ arguments: '42' });
  });
});
