/**
 * The sampling fields a Claude model is sent: the client's temperature, top_p and top_k (the Messages API's
 * own, or a client's sampling extra) as far as the model takes them (claude-version-rules.ts). A field it
 * would refuse with a 400 is left out and named in a warning: the request is served, and the client told.
 * Anthropic's body and Bedrock's Converse input both take what this returns.
 */
import type { ChatRequest } from '../../src/core/chat-request.js';
import type { Warning } from '../../src/core/warning.js';
import { claudeSampling } from './claude-version-rules.js';

export type ClaudeSamplingFields = { temperature?: number; topP?: number; topK?: number };

const wireNames = { temperature: 'temperature', topP: 'top_p', topK: 'top_k' } as const;

export function claudeSamplingFields(request: ChatRequest, provider: string, warnings: Warning[]): ClaudeSamplingFields {
  const fields: ClaudeSamplingFields = {};
  if (request.temperature !== undefined && request.temperature !== null) fields.temperature = request.temperature;
  if (request.topP !== undefined && request.topP !== null) fields.topP = request.topP;
  const topK = request.openaiExtras?.top_k;
  if (typeof topK === 'number') fields.topK = topK;
  const accepted = claudeSampling(request.model.model);
  if (accepted === 'all') return fields;
  const dropped: (keyof ClaudeSamplingFields)[] =
    accepted === 'none'
      ? (['temperature', 'topP', 'topK'] as const).filter((key) => fields[key] !== undefined)
      : fields.temperature !== undefined && fields.topP !== undefined
        ? ['topP']
        : [];
  if (dropped.length === 0) return fields;
  for (const key of dropped) delete fields[key];
  const why =
    accepted === 'none'
      ? 'Claude Opus 4.7 and later take no sampling parameters'
      : 'Claude 4 models take temperature or top_p, not both; temperature was kept';
  warnings.push({
    code: 'unsupported-parameter',
    message: `${dropped.map((key) => wireNames[key]).join(', ')} not sent to ${request.model.model} on provider '${provider}': ${why}.`,
  });
  return fields;
}

/** Thinking cannot go with sampling changed from Claude's defaults (Anthropic's 400 for extended thinking). */
export function changesSampling(fields: ClaudeSamplingFields): boolean {
  return (fields.temperature ?? 1) !== 1 || (fields.topP ?? 1) < 0.95 || fields.topK !== undefined;
}
