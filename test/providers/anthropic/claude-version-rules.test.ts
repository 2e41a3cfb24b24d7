/** Which Claude models take adaptive thinking, read from their ids as each provider spells them. */
import { describe, expect, it } from 'vitest';
import {
  claudeSampling,
  takesAdaptiveThinking,
  takesConverseStrictTools,
  takesStrictTools,
} from '../../../providers/anthropic/claude-version-rules.js';

describe('takesAdaptiveThinking', () => {
  it('is true from Claude 4.6 on, in Anthropic, Bedrock and Vertex AI spellings', () => {
    for (const model of [
      'claude-opus-4-6',
      'claude-sonnet-4-6',
      'claude-opus-4-7',
      'claude-sonnet-5',
      'claude-opus-5',
      'claude-fable-5-1',
      'claude-mythos-preview',
      'anthropic.claude-opus-4-6-v1',
      'us.anthropic.claude-opus-4-7',
      'claude-opus-4-7@20260416',
    ])
      expect(takesAdaptiveThinking(model), model).toBe(true);
  });

  it('is false for Claude 4.5 and earlier, whose dates are no minor version', () => {
    for (const model of [
      'claude-sonnet-4-5',
      'claude-haiku-4-5-20251001',
      'claude-opus-4-20250514',
      'claude-opus-4-1-20250805',
      'claude-3-7-sonnet-20250219',
      'claude-3-5-haiku-latest',
      'anthropic.claude-sonnet-4-5-20250929-v1:0',
      'claude-sonnet-4-5@20250929',
      'claude-fake-1',
      'gpt-4.1',
    ])
      expect(takesAdaptiveThinking(model), model).toBe(false);
  });
});

describe('claudeSampling', () => {
  it('takes every field before Claude 4, one of temperature and top_p in Claude 4, none from Opus 4.7 on', () => {
    expect(claudeSampling('claude-3-7-sonnet-20250219')).toBe('all');
    expect(claudeSampling('claude-fake-1')).toBe('all');
    expect(claudeSampling('claude-sonnet-4-5-20250929')).toBe('temperature-or-top-p');
    expect(claudeSampling('anthropic.claude-sonnet-4-6')).toBe('temperature-or-top-p');
    expect(claudeSampling('claude-opus-4-7')).toBe('none');
    expect(claudeSampling('us.anthropic.claude-sonnet-5')).toBe('none');
    expect(claudeSampling('claude-mythos-preview')).toBe('none');
  });
});

describe('takesStrictTools and takesConverseStrictTools', () => {
  it('give strict tools to Claude 4.5 and later on the Anthropic API, and to 4.5 and 4.6 only on Converse', () => {
    const cases: [string, boolean, boolean][] = [
      ['claude-3-7-sonnet-20250219', false, false],
      ['claude-sonnet-4-20250514', false, false],
      ['claude-opus-4-1-20250805', false, false],
      ['claude-haiku-4-5-20251001', true, true],
      ['claude-sonnet-4-5@20250929', true, true],
      ['us.anthropic.claude-opus-4-6-v1', true, true],
      ['us.anthropic.claude-opus-4-7', true, false],
      ['claude-sonnet-5', true, false],
      ['claude-mythos-preview', true, false],
    ];
    for (const [model, anthropic, converse] of cases) {
      expect(takesStrictTools(model), model).toBe(anthropic);
      expect(takesConverseStrictTools(model), model).toBe(converse);
    }
  });
});
