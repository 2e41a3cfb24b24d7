/**
 * What the AWS SDK throws, as the gateway's errors with their meaning kept
 * (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Converse.html#API_runtime_Converse_Errors):
 * the exception's name (Bedrock's `x-amzn-errortype`, or `code` / `__type` in the body, which the SDK reads
 * into `name`) says what failed, so it is the client's `code`, and picks the OpenAI error type and an honest
 * status; the message is Bedrock's. An exception not listed keeps the HTTP status it came with. No status
 * at all (a refused connection, a timeout) is a transport failure.
 */
import type { Cancellation } from '../../src/core/cancellation.js';
import { gatewayError, type GatewayError, type GatewayErrorType } from '../../src/core/gateway-error.js';
import { contextOverflowCode } from '../../src/core/context-overflow-code.js';
import { credentialsRefusedCode, errorFromTransportFailure, errorFromUpstreamStatus } from '../../src/http/upstream-error.js';

type AwsError = Error & { name: string; $metadata?: { httpStatusCode?: number }; $response?: { headers?: Record<string, string> } };

/**
 * The status each of Bedrock's exceptions has as a response (the Converse and ConverseStream references). An
 * exception inside a ConverseStream (an event-stream message of type `exception`, which the SDK throws)
 * carries no HTTP status of its own: its name says what it is, so a throttle mid-stream still reaches the
 * client as a 429.
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

/**
 * Exceptions whose status says something else than they mean. ModelNotReadyException comes as a 429, but
 * nothing was rate-limited: "The model specified in the request is not ready to serve inference requests"
 * (an imported or provisioned model still loading), which the SDKs retry. To the client it is the
 * upstream unavailable for now: a 503, still retried and handed to fallbacks (src/http/upstream-failure.ts).
 */
const honestStatuses: Readonly<Record<string, { status: number; type: GatewayErrorType }>> = {
  ModelNotReadyException: { status: 503, type: 'upstream_error' },
};

/**
 * Bedrock's 4xx statuses for a model that failed, not a request that was wrong: ModelErrorException and
 * ModelStreamErrorException (424, "The request failed due to an error while processing the model") and
 * ModelTimeoutException (408, "The request took too long to process"). Passed on as they are, a client reads
 * its own mistake (`invalid_request_error`, a 408 that says the client was slow) and neither retries nor
 * fallbacks run. They are the upstream failing: a 502, and a 504 for the timeout.
 */
const modelFailures: ReadonlySet<string> = new Set(['ModelErrorException', 'ModelStreamErrorException', 'ModelTimeoutException']);

function exceptionName(name: string): string {
  return name.charAt(0).toUpperCase() + name.slice(1);
}

/** `name`: an exception's name as the SDK gives it (`ThrottlingException`) or as a stream event's member (`throttlingException`). */
export function bedrockExceptionStatus(name: string): number | undefined {
  return exceptionStatuses[exceptionName(name)];
}

/** One of Bedrock's exceptions, with the HTTP status it came with (or has as a response), as the client's error. */
export function bedrockExceptionError(options: {
  name: string;
  message: string | undefined;
  status: number;
  provider: string;
  retryAfter?: string | null;
}): GatewayError {
  const name = exceptionName(options.name);
  const message = options.message ?? name;
  if (modelFailures.has(name)) {
    const text = `Upstream provider '${options.provider}' failed: ${name} (HTTP ${options.status}): ${message}`;
    const upstreamBody = { message, __type: name };
    if (name === 'ModelTimeoutException') return gatewayError('upstream_timeout', { message: text, upstreamBody });
    // As a 5xx for retries and fallbacks (src/http/upstream-failure.ts), which this is.
    return gatewayError('upstream_http_error', {
      status: 502,
      type: 'upstream_error',
      code: name,
      message: text,
      upstreamStatus: 502,
      upstreamBody,
    });
  }
  const honest = honestStatuses[name];
  const status = honest?.status ?? options.status;
  const mapped = errorFromUpstreamStatus({
    status,
    body: { message, __type: name },
    provider: options.provider,
    retryAfter: options.retryAfter ?? null,
  });
  // The body is flat (`{"message": …}`, the name beside it): the shared mapping reads codes from an `error`
  // object only, so the name is given here as the code clients act on (`ThrottlingException`), unless the
  // mapping found a prompt too long for the model or refused credentials (its code is the one every API's
  // clients read; for credentials, the gateway's AWS ones, not the client's).
  if (mapped.code === credentialsRefusedCode) return mapped;
  return gatewayError('upstream_http_error', {
    status: mapped.status,
    type: honest?.type ?? mapped.type,
    code: mapped.code === contextOverflowCode ? mapped.code : name,
    message: honest ? `Upstream provider '${options.provider}' is not ready: ${name} (HTTP ${options.status}): ${message}` : mapped.message,
    param: null,
    retryAfter: mapped.retryAfter,
    upstreamStatus: status,
    upstreamBody: mapped.upstreamBody,
  });
}

/**
 * The SDK found no credentials (its chain's `CredentialsProviderError`: no keys, an unknown profile, no
 * role). No request was sent, so "unreachable" would send the operator to the network; said as Vertex's
 * and Azure's are, naming what to set. A 502 like theirs: the gateway's upstream failed it, not the client.
 */
function missingCredentials(aws: AwsError, provider: string): GatewayError | undefined {
  if (aws.name !== 'CredentialsProviderError') return undefined;
  return gatewayError('upstream_unavailable', {
    message: `Provider '${provider}': no AWS credentials (${aws.message}). Set accessKeyId and secretAccessKey, profile, or the AWS_* variables of the default chain.`,
    cause: aws,
  });
}

export function mapBedrockError(error: unknown, provider: string, cancellation: Cancellation): GatewayError {
  const aws = error as AwsError;
  const credentials = cancellation.aborted ? undefined : missingCredentials(aws, provider);
  if (credentials) return credentials;
  const status = aws.$metadata?.httpStatusCode ?? (typeof aws.name === 'string' ? bedrockExceptionStatus(aws.name) : undefined);
  if (status === undefined || cancellation.aborted) return errorFromTransportFailure(error, provider, cancellation);
  return bedrockExceptionError({
    name: aws.name,
    message: aws.message,
    status,
    provider,
    retryAfter: aws.$response?.headers?.['retry-after'] ?? null,
  });
}
