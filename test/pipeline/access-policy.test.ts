/** AccessPolicy.filterTools: a shared list's answer is remembered and shared in turn; a list that may change is filtered anew. */
import { describe, expect, it } from 'vitest';
import { isSharedToolList, shareToolList } from '../../src/core/shared-tool-list.js';
import type { ToolDefinition } from '../../src/core/tool-definition.js';
import { AccessPolicy } from '../../src/pipeline/access-policy.js';

const tool = (name: string): ToolDefinition => ({ name, parameters: { type: 'object' } }) as ToolDefinition;
const policy = new AccessPolicy({ key: 'k', name: 'team-a', tools: { deny: ['delete_*'] } } as ConstructorParameters<
  typeof AccessPolicy
>[0]);

describe('AccessPolicy.filterTools', () => {
  it('removes denied tools with a warning naming them', () => {
    const result = policy.filterTools([tool('get_weather'), tool('delete_file')]);
    expect(result.tools.map((kept) => kept.name)).toEqual(['get_weather']);
    expect(result.warning).toMatchObject({ code: 'tool-not-allowed', message: expect.stringContaining('delete_file') });
  });

  it('answers a shared list once, as a shared list, and the same way every time', () => {
    const list = shareToolList([tool('get_weather'), tool('delete_file')]);
    const first = policy.filterTools(list);
    expect(policy.filterTools(list)).toBe(first);
    expect(isSharedToolList(first.tools)).toBe(true);
    expect(first.tools.map((kept) => kept.name)).toEqual(['get_weather']);
  });

  it('filters a list frozen only shallowly every time: its tools may still change', () => {
    const list = Object.freeze([tool('get_weather')]);
    expect(policy.filterTools(list)).not.toBe(policy.filterTools(list));
  });

  it('filters a list that is not frozen every time (it may have changed)', () => {
    const list = [tool('get_weather')];
    expect(policy.filterTools(list).warning).toBeUndefined();
    list.push(tool('delete_file'));
    expect(policy.filterTools(list).tools.map((kept) => kept.name)).toEqual(['get_weather']);
    expect(policy.filterTools(list).warning).toBeDefined();
  });
});
