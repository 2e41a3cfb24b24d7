/** The error a client gets when an upstream reply passes one of its provider's `limits` (a 502, never a hang). */
import { gatewayError, type GatewayError } from '../core/gateway-error.js';

/** Which cap was passed: a body read whole (`maxResponseBytes`) or one stream event or line (`maxEventBytes`). */
export type UpstreamLimitKind = 'reply' | 'event';

function describeBytes(bytes: number): string {
  const mebibytes = bytes / (1024 * 1024);
  return Number.isInteger(mebibytes) ? `${mebibytes} MiB` : `${bytes} bytes`;
}

export function upstreamResponseTooLarge(provider: string, kind: UpstreamLimitKind, limitBytes: number): GatewayError {
  const what = kind === 'reply' ? 'a reply' : 'a stream event';
  const setting = kind === 'reply' ? 'maxResponseBytes' : 'maxEventBytes';
  return gatewayError('upstream_response_too_large', {
    message: `Upstream provider '${provider}' sent ${what} larger than ${describeBytes(limitBytes)}, the gateway's limit (providers.${provider}.limits.${setting}); it was not read further.`,
  });
}
