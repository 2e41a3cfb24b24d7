/** Selecting the agent format: detection order, Codex signals, custom tags, the 400s, and config rules checked at start. */
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/config/config-error.js';
import { normalizeAgentFormats } from '../../../src/config/normalize-config.js';
import { GatewayError } from '../../../src/core/gateway-error.js';
import type { AgentFormatRequest } from '../../../src/pipeline/agent-format/agent-format.js';
import { agentFormatHeader } from '../../../src/pipeline/agent-format/agent-format.js';
import { AgentFormatSelector } from '../../../src/pipeline/agent-format/agent-format-selector.js';
import { parseToolCallTags } from '../../../src/pipeline/agent-format/parse-tool-call-tags.js';
import { createAgentSyntaxRegistry } from '../../../tool-formats/agent-syntaxes/index.js';
import { createToolFormatRegistry } from '../../../tool-formats/index.js';

const registry = createAgentSyntaxRegistry(createToolFormatRegistry());
const selector = new AgentFormatSelector(normalizeAgentFormats(undefined), registry);

function select(request: Partial<AgentFormatRequest>) {
  const selection = selector.select({ headers: {}, ...request });
  return agentFormatHeader(selection);
}

function rejection(request: Partial<AgentFormatRequest>): GatewayError {
  try {
    selector.select({ headers: {}, ...request });
  } catch (error) {
    if (GatewayError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a rejection');
}

describe('detection order: field > header > rule > default', () => {
  const codexHeaders = { 'user-agent': 'codex_exec/0.171.0 (Debian 12.0.0; x86_64) xterm (codex_exec; 0.171.0)', 'x-agent-format': 'xml' };

  it('takes the body field over everything else', () => {
    expect(select({ field: 'qwen3', headers: codexHeaders })).toBe('qwen3; source=field');
  });

  it('takes the X-Agent-Format header over the rules', () => {
    expect(select({ headers: codexHeaders })).toBe('xml; source=header');
  });

  it('recognises Codex by its User-Agent', () => {
    expect(select({ headers: { 'user-agent': 'codex_cli_rs/0.1.0 (Linux; x86_64)' } })).toBe('codex; source=rule');
  });

  it('recognises Codex by the originator header alone', () => {
    expect(select({ headers: { 'user-agent': 'OpenAI/JS 6.0.0', originator: 'codex_vscode' } })).toBe('codex; source=rule');
  });

  it('falls back to openai, never looking at a model name', () => {
    expect(select({ headers: { 'user-agent': 'OpenAI/Python 1.99.0' } })).toBe('openai; source=default');
  });

  it('treats auto like an absent field or header', () => {
    expect(select({ field: 'auto', headers: { 'x-agent-format': 'AUTO', originator: 'codex_exec' } })).toBe('codex; source=rule');
  });

  it('reads values case-insensitively and trimmed', () => {
    expect(select({ field: ' Qwen3 ' })).toBe('qwen3; source=field');
    expect(select({ headers: { 'x-agent-format': 'PassThrough' } })).toBe('passthrough; source=header');
  });

  it('offers every built-in format', () => {
    for (const name of ['openai', 'codex', 'passthrough', 'qwen3', 'llama3', 'xml', 'hermes', 'gemma', 'mistral', 'harmony'])
      expect(select({ field: name })).toBe(`${name}; source=field`);
  });
});

describe('custom tags', () => {
  it('selects custom tags from tool_call_tags alone', () => {
    const selection = selector.select({ headers: {}, toolCallTags: '[[CALL]],[[/CALL]]' });
    expect(agentFormatHeader(selection)).toBe('custom; source=field');
    expect(selection.format.type === 'text' && selection.format.syntax.renderCall({ name: 'get_time', arguments: '{}' })).toBe(
      '[[CALL]]\n{\n  "name": "get_time",\n  "arguments": {}\n}\n[[/CALL]]',
    );
  });

  it('accepts agent_format custom with the tags, and the tags over a header', () => {
    expect(select({ field: 'custom', toolCallTags: 'call' })).toBe('custom; source=field');
    expect(select({ toolCallTags: 'call', headers: { 'x-agent-format': 'qwen3' } })).toBe('custom; source=field');
  });

  it('reads "START,END" as written and a single name as <name></name>', () => {
    expect(parseToolCallTags('[[CALL]], [[/CALL]]')).toEqual({ start: '[[CALL]]', end: '[[/CALL]]' });
    expect(parseToolCallTags('my_call')).toEqual({ start: '<my_call>', end: '</my_call>' });
  });

  it.each([[''], [','], ['a,b,c'], ['<x>'], ['two words']])('rejects tool_call_tags %j', (tags) => {
    const error = rejection({ toolCallTags: tags });
    expect(error.status).toBe(400);
    expect(error.param).toBe('tool_call_tags');
  });

  it('rejects tags that equal each other or clash with <think>', () => {
    expect(rejection({ toolCallTags: '||,||' }).param).toBe('tool_call_tags');
    expect(rejection({ toolCallTags: 'think' }).message).toContain('<think>');
  });

  it('rejects tool_call_tags next to another agent_format, and custom without tags', () => {
    expect(rejection({ field: 'qwen3', toolCallTags: 'x' }).param).toBe('tool_call_tags');
    expect(rejection({ field: 'custom' }).param).toBe('tool_call_tags');
  });
});

describe('the 400 for unknown values', () => {
  it('names the valid values, with param agent_format', () => {
    const error = rejection({ field: 'klingon' });
    expect(error.status).toBe(400);
    expect(error.type).toBe('invalid_request_error');
    expect(error.param).toBe('agent_format');
    expect(error.code).toBe('unknown_agent_format');
    expect(error.message).toContain("agent_format 'klingon'");
    expect(error.message).toBe(
      "agent_format 'klingon' is not an agent format; valid values are openai, codex, passthrough, qwen3, llama3, xml, hermes, gemma, mistral, harmony, custom (with tool_call_tags) and auto.",
    );
  });

  it('rejects an unknown header value the same way', () => {
    const error = rejection({ headers: { 'x-agent-format': 'klingon' } });
    expect(error.param).toBe('agent_format');
    expect(error.message).toContain('X-Agent-Format');
  });

  it('rejects a field that is not a string', () => {
    expect(rejection({ field: 3 }).param).toBe('agent_format');
    expect(rejection({ toolCallTags: ['a', 'b'] }).param).toBe('tool_call_tags');
  });
});

describe('configured rules', () => {
  it('replace the defaults and match any case', () => {
    const custom = new AgentFormatSelector(
      normalizeAgentFormats({ rules: [{ header: 'X-Harness', contains: 'QWEN', format: 'qwen3' }], default: 'passthrough' }),
      registry,
    );
    expect(agentFormatHeader(custom.select({ headers: { 'x-harness': 'my-qwen-agent/1.0' } }))).toBe('qwen3; source=rule');
    expect(agentFormatHeader(custom.select({ headers: { 'user-agent': 'codex_exec/1.0' } }))).toBe('passthrough; source=default');
  });

  it('are checked at start: an unknown format is a configuration error naming the path', () => {
    const build = () =>
      new AgentFormatSelector(
        normalizeAgentFormats({ rules: [{ header: 'user-agent', contains: 'x', format: 'klingon' }], default: 'nope' }),
        registry,
      );
    expect(build).toThrow(ConfigError);
    try {
      build();
    } catch (error) {
      expect((error as ConfigError).problems).toEqual([
        expect.stringMatching(/^agentFormats\.rules\.0\.format: 'klingon' is not/),
        expect.stringMatching(/^agentFormats\.default: 'nope' is not/),
      ]);
    }
  });
});
