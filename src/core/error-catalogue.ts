/**
 * Every error the gateway raises, listed once: its name, HTTP status, type and wire `code` (the README's
 * error table is this list). Errors are built from it with `gatewayError(name, details)`.
 */

export type GatewayErrorType =
  | 'invalid_request_error'
  | 'authentication_error'
  | 'permission_error'
  | 'not_found_error'
  | 'rate_limit_error'
  | 'upstream_error'
  | 'timeout_error'
  | 'server_error';

export type ErrorCatalogueEntry = {
  status: number;
  type: GatewayErrorType;
  /** The wire `code` when it is not the entry's name; null where OpenAI itself sends none (plain validation errors). */
  code?: string | null;
  /** The message when the caller gives none. */
  message?: string;
  /**
   * The status, type and code are passed on from elsewhere (an upstream's reply, fastify, a script), so the
   * caller gives them; `status` and `type` here are the usual ones.
   */
  passedOn?: true;
};

export const errorCatalogue = {
  // 400: the request is wrong; the message names the field and `param` points at it.
  invalid_request: { status: 400, type: 'invalid_request_error', code: null },
  unsupported_value: { status: 400, type: 'invalid_request_error' },
  duplicate_tool_name: { status: 400, type: 'invalid_request_error' },
  unknown_tool: { status: 400, type: 'invalid_request_error' },
  unknown_family: { status: 400, type: 'invalid_request_error' },
  unknown_agent_format: { status: 400, type: 'invalid_request_error' },
  invalid_tool_call_tags: { status: 400, type: 'invalid_request_error' },
  json_too_deep: { status: 400, type: 'invalid_request_error' },
  embeddings_unsupported: { status: 400, type: 'invalid_request_error' },
  invalid_json: { status: 400, type: 'invalid_request_error' },
  invalid_frame: { status: 400, type: 'invalid_request_error' },
  unsupported_event_type: { status: 400, type: 'invalid_request_error' },
  malformed_http_request: { status: 400, type: 'invalid_request_error' },
  // Fastify's own 4xx (malformed JSON, body too large, wrong content type): its status, under a public code (src/plugins/public-error-code.ts).
  request_rejected: { status: 400, type: 'invalid_request_error', passedOn: true },
  invalid_api_key: { status: 401, type: 'authentication_error', message: 'Missing or invalid API key.' },
  model_not_allowed: { status: 403, type: 'permission_error' },
  tool_not_allowed: { status: 403, type: 'permission_error' },
  admin_only: { status: 403, type: 'permission_error', message: 'Only a key marked admin may do this.' },
  model_not_found: { status: 404, type: 'invalid_request_error' },
  response_not_found: { status: 404, type: 'invalid_request_error' },
  previous_response_not_found: { status: 404, type: 'invalid_request_error' },
  item_not_found: { status: 404, type: 'invalid_request_error' },
  unknown_route: { status: 404, type: 'not_found_error', code: 'not_found' },
  // GET on the Responses path without an upgrade: the path exists, so not a 404 (nor a 405: GET is its method);
  // 426 says what is missing, with `Upgrade: websocket` (RFC 9110 §15.5.22).
  websocket_only_route: { status: 426, type: 'invalid_request_error', code: 'upgrade_required' },
  request_timeout: { status: 408, type: 'invalid_request_error', message: 'The request did not arrive in time.' },
  response_in_progress: { status: 409, type: 'invalid_request_error' },
  /** A reload found the config file invalid: the running config is kept. */
  config_invalid: { status: 422, type: 'invalid_request_error' },
  // OpenAI's code when a WebSocket connection reaches its 60 minutes; the client opens a new one.
  websocket_connection_limit_reached: { status: 400, type: 'invalid_request_error' },
  request_header_fields_too_large: {
    status: 431,
    type: 'invalid_request_error',
    message: 'The request headers are larger than the gateway accepts.',
  },
  rate_limit_exceeded: { status: 429, type: 'rate_limit_error' },
  /** The key spent its budget for the period (server.apiKeys[].budget). */
  budget_exceeded: { status: 429, type: 'rate_limit_error' },
  // nginx's 499: nobody reads it but the log.
  client_closed_request: {
    status: 499,
    type: 'invalid_request_error',
    message: 'The client closed the request before the upstream finished',
  },
  internal_error: { status: 500, type: 'server_error', code: null },
  /** A reload read a valid config but its new app failed as it was built or started: the running config is kept. */
  reload_failed: { status: 500, type: 'server_error' },
  // Upstream failures: 502 with the gateway's own code, or the upstream's own 4xx/429 passed on.
  upstream_unavailable: { status: 502, type: 'upstream_error' },
  upstream_error: { status: 502, type: 'upstream_error' },
  upstream_bad_response: { status: 502, type: 'upstream_error' },
  upstream_bad_chunk: { status: 502, type: 'upstream_error' },
  upstream_stream_error: { status: 502, type: 'upstream_error' },
  upstream_incomplete: { status: 502, type: 'upstream_error' },
  upstream_response_too_large: { status: 502, type: 'upstream_error' },
  // An upstream's 401 or 403: the gateway's own credentials for it (config) were refused, not the client's key.
  upstream_authentication_failed: { status: 502, type: 'upstream_error' },
  // Anthropic's in-band overloaded_error (HTTP 529's stream form); the Anthropic envelope says overloaded_error.
  overloaded: { status: 502, type: 'upstream_error' },
  // An upstream's HTTP error, its status passed on: its 4xx (and 429) with its own code, its 5xx with code upstream_http_<status>.
  upstream_http_error: { status: 502, type: 'upstream_error', passedOn: true },
  // An in-band upstream error (Anthropic's `event: error`, an OpenAI-compatible `data: {"error":…}` with a code): its own type or code.
  upstream_event_error: { status: 502, type: 'upstream_error', passedOn: true },
  // The scripted provider's error turn: the status the script gives.
  scripted_error: { status: 502, type: 'upstream_error', passedOn: true },
  not_ready: { status: 503, type: 'server_error' },
  server_shutting_down: { status: 503, type: 'server_error', message: 'The gateway is shutting down.' },
  state_unavailable: { status: 503, type: 'server_error' },
  upstream_timeout: { status: 504, type: 'timeout_error' },
} as const satisfies Record<string, ErrorCatalogueEntry>;

export type ErrorName = keyof typeof errorCatalogue;
