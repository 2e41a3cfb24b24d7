import { describe, expect, it } from 'vitest';
import { normalizeClientKeys } from '../../src/config/normalize-client-keys.js';

describe('normalizeClientKeys', () => {
  it('names keys without a name by position', () => {
    expect(normalizeClientKeys(['sk-a', { key: 'sk-b', name: 'ci' }, { key: 'sk-c' }]).map((clientKey) => clientKey.name)).toEqual([
      'key-1',
      'ci',
      'key-3',
    ]);
  });

  it('lets two keys of one policy share a name (a rotated key: one client, one budget)', () => {
    const budget = { usd: 5, period: 'day' as const };
    const keys = normalizeClientKeys([
      { key: 'sk-old', name: 'team', budget },
      { key: 'sk-new', name: 'team', budget },
    ]);
    expect(keys.map((clientKey) => clientKey.name)).toEqual(['team', 'team']);
  });

  it("refuses a name given to keys of different policies, as when it equals another key's generated name", () => {
    // The plain key is `key-2`: without the check it would spend the first key's budget and share its counters.
    expect(() => normalizeClientKeys([{ key: 'sk-a', name: 'key-2', budget: { usd: 1, period: 'day' } }, 'sk-b'])).toThrow(
      "server.apiKeys.1: named 'key-2' like server.apiKeys.0, with another policy",
    );
    expect(() =>
      normalizeClientKeys([
        { key: 'sk-a', name: 'team', limits: { requestsPerMinute: 10 } },
        { key: 'sk-b', name: 'team', limits: { requestsPerMinute: 1000 } },
      ]),
    ).toThrow(/server\.apiKeys\.1: named 'team'/);
  });

  it('refuses one key listed under two names (the last would win, widening a restricted key), without quoting it', () => {
    const attempt = () =>
      normalizeClientKeys([
        { key: 'sk-team-secret-1', name: 'team', models: ['local/*'] },
        'sk-admin',
        { key: 'sk-team-secret-1', name: 'everything' },
      ]);
    expect(attempt).toThrow("server.apiKeys.2: the same key as server.apiKeys.0 ('team'), under the name 'everything'");
    expect(attempt).not.toThrow(/sk-team-secret-1/);
    // The same key twice under one name is one client (the name check above compares their policies).
    expect(normalizeClientKeys(['sk-a', { key: 'sk-b', name: 'ci' }, { key: 'sk-b', name: 'ci' }])).toHaveLength(3);
  });
});

describe("a key's models naming an alias or a deployment", () => {
  const names = {
    aliases: { fast: 'openai/gpt-4o-mini' },
    deployments: { coder: { targets: [{ model: 'box1/qwen' }, { model: 'box2/qwen' }] } },
  };

  it('is refused, naming the targets to allow (matched by target, the name would allow nothing)', () => {
    expect(() => normalizeClientKeys([{ key: 'sk-a', name: 'team', models: ['local/*', 'fast', 'coder'] }], names)).toThrow(
      [
        "server.apiKeys.0.models.1: 'fast' is an alias, and a key's models are matched by the provider/model a request reaches: allow its target ('openai/gpt-4o-mini')",
        "server.apiKeys.0.models.2: 'coder' is a deployment, and a key's models are matched by the provider/model a request reaches: allow its targets ('box1/qwen', 'box2/qwen')",
      ].join('\n  '),
    );
  });

  it('leaves provider/model globs and other names alone', () => {
    const keys = normalizeClientKeys([{ key: 'sk-a', name: 'team', models: ['openai/*', 'box?/qwen', 'gpt-*'] }], names);
    expect(keys[0]?.models).toEqual(['openai/*', 'box?/qwen', 'gpt-*']);
  });
});
