/**
 * What the AWS SDK throws, as the gateway's errors with their meaning kept
 * (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Converse.html#API_runtime_Converse_Errors):
 * an HTTP status from Bedrock (ValidationException 400, AccessDeniedException 403, ResourceNotFoundException
 * 404, ThrottlingException 429, ModelTimeoutException 408, ServiceUnavailableException 503, …) goes through
 * the same mapping as every upstream's; no status (a refused connection, a timeout) is a transport failure.
 */
import type { Cancellation } from '../../src/core/cancellation.js';
import type { GatewayError } from '../../src/core/gateway-error.js';
import { errorFromTransportFailure, errorFromUpstreamStatus } from '../../src/http/upstream-error.js';

type AwsError = Error & { name: string; $metadata?: { httpStatusCode?: number }; $response?: { headers?: Record<string, string> } };

export function mapBedrockError(error: unknown, provider: string, cancellation: Cancellation): GatewayError {
  const status = (error as AwsError).$metadata?.httpStatusCode;
  if (status === undefined || cancellation.aborted) return errorFromTransportFailure(error, provider, cancellation);
  const aws = error as AwsError;
  return errorFromUpstreamStatus({
    status,
    body: { message: aws.message, __type: aws.name, code: aws.name },
    provider,
    retryAfter: aws.$response?.headers?.['retry-after'] ?? null,
  });
}
