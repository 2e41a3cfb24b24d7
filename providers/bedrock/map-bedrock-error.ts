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

/**
 * The status each of Bedrock's exceptions has as a response. An exception inside a ConverseStream (an
 * event-stream message of type `exception`, which the SDK throws) carries no HTTP status of its own: its
 * name says what it is, so a throttle mid-stream still reaches the client as a 429.
 * (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ConverseStream.html#API_runtime_ConverseStream_Errors)
 */
const exceptionStatuses: Readonly<Record<string, number>> = {
  ValidationException: 400,
  AccessDeniedException: 403,
  ResourceNotFoundException: 404,
  ModelTimeoutException: 408,
  ModelStreamErrorException: 424,
  ThrottlingException: 429,
  ServiceQuotaExceededException: 429,
  InternalServerException: 500,
  ModelErrorException: 424,
  ServiceUnavailableException: 503,
  ModelNotReadyException: 429,
};

/** `name`: an exception's name as the SDK gives it (`ThrottlingException`) or as a stream event's member (`throttlingException`). */
export function bedrockExceptionStatus(name: string): number | undefined {
  return exceptionStatuses[name.charAt(0).toUpperCase() + name.slice(1)];
}

export function mapBedrockError(error: unknown, provider: string, cancellation: Cancellation): GatewayError {
  const aws = error as AwsError;
  const status = aws.$metadata?.httpStatusCode ?? (typeof aws.name === 'string' ? bedrockExceptionStatus(aws.name) : undefined);
  if (status === undefined || cancellation.aborted) return errorFromTransportFailure(error, provider, cancellation);
  return errorFromUpstreamStatus({
    status,
    body: { message: aws.message, __type: aws.name, code: aws.name },
    provider,
    retryAfter: aws.$response?.headers?.['retry-after'] ?? null,
  });
}
