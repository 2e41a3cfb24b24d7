/**
 * Anthropic Messages fields only Claude's own API takes (`ChatRequest.anthropicExtras`: `context_management`,
 * `service_tier`). The anthropic kind forwards them; any other upstream would drop them without a word, so
 * they are taken off the request here, where the target's kind is known, each with an `unsupported-parameter`
 * warning. Claude on Vertex AI and Bedrock is no exception: neither is documented to take these fields in
 * the form a Messages client sends them.
 */
import type { ChatRequest } from '../core/chat-request.js';
import type { Warning } from '../core/warning.js';

export function withoutClaudeOnlyFields(request: ChatRequest, providerType: string, warnings: Warning[]): void {
  const extras = request.anthropicExtras;
  if (extras === undefined || providerType === 'anthropic') return;
  for (const name of Object.keys(extras))
    warnings.push({
      code: 'unsupported-parameter',
      message: `Parameter '${name}' is only taken by Anthropic's API, not by ${providerType} provider '${request.model.provider}'; it was ignored.`,
    });
  request.anthropicExtras = undefined;
}
