/** JSON.stringify with some members' JSON text given: byte for byte JSON.stringify's own output. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { joinJsonPieces, stringifyWithRawMembers } from '../../../providers/openai/stringify-with-raw-members.js';

function check(object: Record<string, unknown>, keys: string[]): void {
  const standIn = { ...object, ...Object.fromEntries(keys.map((key) => [key, null])) };
  // Raw members as text and as bytes alike.
  const raw = new Map(
    keys.map((key, index) => [key, [index % 2 ? JSON.stringify(object[key]) : Buffer.from(JSON.stringify(object[key]))]]),
  );
  expect(joinJsonPieces(stringifyWithRawMembers(standIn, raw)).toString('utf8')).toBe(JSON.stringify(object));
}

describe('stringifyWithRawMembers', () => {
  const tools = [{ type: 'function', function: { name: 'f', parameters: { type: 'object' } } }];

  it('matches JSON.stringify with the raw members first, in the middle, last, alone or side by side', () => {
    check({ tools, model: 'm' }, ['tools']);
    check({ model: 'm', tools, stream: true }, ['tools']);
    check({ model: 'm', messages: [], tools }, ['tools']);
    check({ tools }, ['tools']);
    check({ model: 'm', messages: [{ role: 'user' }], tools, stream: false }, ['messages', 'tools']);
    check({ messages: [], tools: [] }, ['messages', 'tools']);
    check({ a: 1 }, []);
  });

  it('keeps JSON.stringify order and omissions: integer-like keys first, undefined members dropped', () => {
    check({ b: 1, tools: [1], '2': 'two', a: undefined, '1': 'one', c: undefined }, ['tools']);
    check({ a: undefined, tools: [], z: undefined, messages: 'x', y: undefined }, ['tools', 'messages']);
  });

  it('keeps a member named __proto__ a member', () => {
    const object = JSON.parse('{"__proto__":{"x":1},"tools":[1],"after":"__proto__"}') as Record<string, unknown>;
    check(object, ['tools']);
  });

  it('matches JSON.stringify for any object and any choice of raw members', () => {
    // Keys JSON.stringify treats apart (integer-like, __proto__, a prototype's name) and values it drops.
    const key = fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom('0', '7', '__proto__', 'toString', 'tools', 'messages'));
    const value = fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constant(undefined));
    fc.assert(
      fc.property(fc.uniqueArray(fc.tuple(key, value, fc.boolean()), { selector: ([name]) => name, maxLength: 8 }), (members) => {
        const object: Record<string, unknown> = {};
        for (const [name, member] of members)
          Object.defineProperty(object, name, { value: member, enumerable: true, writable: true, configurable: true });
        check(
          object,
          members.filter(([, member, raw]) => raw && member !== undefined).map(([name]) => name),
        );
      }),
    );
  });
});
