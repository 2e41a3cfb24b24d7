/** Chooses a request's agent format: body field, X-Agent-Format header, configured header rules, default. */
// Never from the model name: a model says nothing about what the client parses (AbstractCore W-7 gave
// every `ollama/…` model LLaMA tags).
import type { AgentSyntaxRegistry } from '../../core/agent-text-syntax.js';
import { gatewayError, invalidRequest } from '../../core/gateway-error.js';
import { ConfigError } from '../../config/config-error.js';
import type { AgentFormatSettings } from '../../config/config-types.js';
import { structuredFormatNames, type AgentFormat, type AgentFormatRequest, type AgentFormatSelection } from './agent-format.js';
import { parseToolCallTags } from './parse-tool-call-tags.js';

/** Same as leaving the field or header out: carry on with detection. */
const auto = 'auto';
const custom = 'custom';
const passthrough = 'passthrough';

export class AgentFormatSelector {
  /** Every value `agent_format` accepts, for error messages and docs. */
  readonly validNames: readonly string[];
  /** What most requests get (no field, no header, no rule matched): resolved once, shared. */
  private readonly defaultSelection: AgentFormatSelection;

  constructor(
    private readonly settings: AgentFormatSettings,
    private readonly registry: AgentSyntaxRegistry,
  ) {
    this.validNames = [...structuredFormatNames, passthrough, ...registry.syntaxes.keys(), custom, auto];
    // A rule or default naming a format that does not exist would 400 every matching request: refuse at start.
    const problems = [
      ...settings.rules.flatMap((rule, index) =>
        this.isNamedFormat(rule.format) ? [] : [`agentFormats.rules.${index}.format: '${rule.format}' ${this.validText('config')}`],
      ),
      ...(this.isNamedFormat(settings.default) ? [] : [`agentFormats.default: '${settings.default}' ${this.validText('config')}`]),
    ];
    if (problems.length) throw new ConfigError(problems);
    this.defaultSelection = Object.freeze({ format: this.resolve(settings.default, 'default'), source: 'default' });
  }

  select(request: AgentFormatRequest): AgentFormatSelection {
    const field = optionalString(request.field, 'agent_format');
    const tags = optionalString(request.toolCallTags, 'tool_call_tags');
    const fieldName = field === undefined ? undefined : normalize(field);
    if (tags !== undefined) {
      if (fieldName !== undefined && fieldName !== custom && fieldName !== auto) {
        throw gatewayError('invalid_tool_call_tags', {
          message: `tool_call_tags goes with agent_format '${custom}' (or no agent_format), not '${field}'.`,
          param: 'tool_call_tags',
        });
      }
      return { format: this.customFormat(tags), source: 'field' };
    }
    if (fieldName !== undefined && fieldName !== auto)
      return { format: this.resolve(fieldName, `agent_format '${field}'`), source: 'field' };

    const header = headerValue(request.headers, 'x-agent-format');
    if (header !== undefined && normalize(header) !== auto)
      return { format: this.resolve(normalize(header), `X-Agent-Format header value '${header}'`), source: 'header' };

    for (const rule of this.settings.rules) {
      const value = headerValue(request.headers, rule.header);
      if (value !== undefined && value.toLowerCase().includes(rule.contains.toLowerCase()))
        return { format: this.resolve(rule.format, 'rule'), source: 'rule' };
    }
    return this.defaultSelection;
  }

  private resolve(name: string, what: string): AgentFormat {
    switch (name) {
      case 'openai':
      case 'codex':
        return { type: 'structured', name };
      case passthrough:
        return { type: 'passthrough', name };
      case custom:
        throw gatewayError('invalid_tool_call_tags', {
          message: `agent_format '${custom}' needs tool_call_tags ("START,END" or a tag name).`,
          param: 'tool_call_tags',
        });
      default: {
        const syntax = this.registry.syntaxes.get(name);
        if (!syntax) throw gatewayError('unknown_agent_format', { message: `${what} ${this.validText('request')}`, param: 'agent_format' });
        return { type: 'text', name, syntax };
      }
    }
  }

  private customFormat(value: string): AgentFormat {
    const tags = parseToolCallTags(value);
    try {
      return { type: 'text', name: custom, syntax: this.registry.custom(tags.start, tags.end) };
    } catch (error) {
      throw gatewayError('invalid_tool_call_tags', {
        message: `tool_call_tags ${JSON.stringify(value)} cannot be used: ${(error as Error).message}`,
        param: 'tool_call_tags',
      });
    }
  }

  private isNamedFormat(name: string): boolean {
    return (structuredFormatNames as readonly string[]).includes(name) || name === passthrough || this.registry.syntaxes.has(name);
  }

  /** Custom tags and `auto` only mean something in a request. */
  private validText(where: 'request' | 'config'): string {
    const named = this.validNames.filter((valid) => valid !== auto && valid !== custom);
    return where === 'request'
      ? `is not an agent format; valid values are ${named.join(', ')}, ${custom} (with tool_call_tags) and ${auto}.`
      : `is not an agent format; valid values are ${named.join(', ')}.`;
  }
}

function normalize(value: string): string {
  return value.trim().toLowerCase();
}

function optionalString(value: unknown, param: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw invalidRequest(`${param} must be a string.`, param);
  return value;
}

/** Node lower-cases header names; a repeated header counts by its first value. */
function headerValue(headers: AgentFormatRequest['headers'], name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}
