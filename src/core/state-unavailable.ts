/** The error a request gets when the shared state (Redis) it needs does not answer: a 503, never a hang. */
import { gatewayError, type GatewayError } from './gateway-error.js';

export function stateUnavailable(what: string, cause?: unknown): GatewayError {
  return gatewayError('state_unavailable', {
    message: `The gateway's shared state (Redis) is unavailable, so ${what}. Try again shortly.`,
    cause,
  });
}
