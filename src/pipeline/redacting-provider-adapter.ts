/**
 * A provider adapter whose thrown errors have the configured secrets redacted, before they become a
 * client's error envelope (chat, model lists, embeddings). Errors inside an event stream are redacted
 * by the pipeline's last stage (finalize-events.ts), which every event already passes: no extra layer per event.
 */
import { GatewayError } from '../core/gateway-error.js';
import type { ProviderAdapter } from '../core/provider-adapter.js';
import type { SecretRedactor } from '../core/secret-redactor.js';

export function redactProviderErrors(adapter: ProviderAdapter, redactor: SecretRedactor): ProviderAdapter {
  if (!redactor.active) return adapter;
  const rethrow = (error: unknown): never => {
    throw GatewayError.isInstance(error) ? redactor.redactError(error) : error;
  };
  const redacting: ProviderAdapter = {
    stream: (request, context) => adapter.stream(request, context).catch(rethrow),
  };
  const { listModels, embed, close } = adapter;
  if (listModels) redacting.listModels = (context) => listModels.call(adapter, context).catch(rethrow);
  if (embed) redacting.embed = (request, context) => embed.call(adapter, request, context).catch(rethrow);
  if (close) redacting.close = () => close.call(adapter);
  return redacting;
}
