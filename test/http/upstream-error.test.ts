/** A failure the caller's own cancellation caused is reported as that cause, not as an upstream failure. */
import { describe, expect, it } from 'vitest';
import { cancellationFromSignal } from '../../src/core/cancellation.js';
import { RequestCancellation } from '../../src/pipeline/request-cancellation.js';
import { GatewayError } from '../../src/core/gateway-error.js';
import {
  errorFromAbort,
  errorFromInBandOverflow,
  errorFromTransportFailure,
  errorFromUpstreamStatus,
} from '../../src/http/upstream-error.js';

const socketError = Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' });

describe('errorFromTransportFailure', () => {
  it('is a 502 naming the provider when nothing was cancelled', () => {
    expect(errorFromTransportFailure(socketError, 'up')).toMatchObject({ status: 502, type: 'upstream_error' });
    expect(errorFromTransportFailure(socketError, 'up', new RequestCancellation())).toMatchObject({ status: 502 });
    expect(errorFromTransportFailure(socketError, 'up').message).toContain("'up'");
  });

  it('is what the cancellation says once it fired: a client that left, a timeout, or its own GatewayError', () => {
    const leaving = new RequestCancellation();
    leaving.abort(new Error('client closed the connection'));
    expect(errorFromTransportFailure(socketError, 'up', leaving)).toMatchObject({ status: 499, code: 'client_closed_request' });

    const signal = AbortSignal.abort(new DOMException('timed out', 'TimeoutError'));
    expect(errorFromTransportFailure(socketError, 'up', cancellationFromSignal(signal))).toMatchObject({
      status: 504,
      type: 'timeout_error',
    });

    const shutdown = new GatewayError({
      status: 503,
      type: 'server_error',
      code: 'server_shutting_down',
      message: 'The gateway is shutting down.',
    });
    expect(errorFromAbort(shutdown)).toBe(shutdown);
  });
});

describe('errorFromUpstreamStatus', () => {
  const reply = (body: unknown) => errorFromUpstreamStatus({ status: 400, body, provider: 'up' });

  it("keeps the param of older vLLM's and SGLang's flat body, and takes neither its class name nor its status for a code", () => {
    const flat = { object: 'error', message: 'bad temperature', type: 'BadRequestError', param: 'temperature', code: 400 };
    expect(reply(flat)).toMatchObject({
      status: 400,
      type: 'invalid_request_error',
      message: 'bad temperature',
      param: 'temperature',
      code: null,
    });
  });

  it("does the same for newer vLLM's and llama-server's nested body, whose code is the status too", () => {
    const nested = { error: { message: 'bad n', type: 'BadRequestError', param: 'n', code: 400 } };
    expect(reply(nested)).toMatchObject({ param: 'n', code: null });
    const llama = { error: { code: 400, message: 'tools param requires --jinja flag', type: 'invalid_request_error' } };
    expect(reply(llama)).toMatchObject({ param: null, code: null });
  });

  it("keeps OpenAI's own code and param, Anthropic's type where there is no code, and reads llama-server's overflow", () => {
    const openai = { error: { message: 'no such tool', type: 'invalid_request_error', param: 'tools[0]', code: 'invalid_value' } };
    expect(reply(openai)).toMatchObject({ param: 'tools[0]', code: 'invalid_value' });
    expect(reply({ type: 'error', error: { type: 'invalid_request_error', message: 'x' } })).toMatchObject({
      code: 'invalid_request_error',
    });
    const overflow = {
      error: { code: 400, message: 'request (9000 tokens) exceeds the available context size', type: 'exceed_context_size_error' },
    };
    expect(reply(overflow)).toMatchObject({ code: 'context_length_exceeded' });
  });

  it("reads llama-server's body inside Ollama's text: its message and its overflow type, not the JSON", () => {
    // Ollama 0.40 with `truncate: false`: its runner's refusal, passed on as Ollama's own error text.
    const inner = {
      error: {
        code: 400,
        message: 'request (8889 tokens) exceeds the available context size (4096 tokens), try increasing it',
        type: 'exceed_context_size_error',
        n_prompt_tokens: 8889,
        n_ctx: 4096,
      },
    };
    expect(reply({ error: JSON.stringify(inner) })).toMatchObject({
      status: 400,
      code: 'context_length_exceeded',
      message: 'request (8889 tokens) exceeds the available context size (4096 tokens), try increasing it',
    });
    // Text that only looks like JSON stays the message as it is.
    expect(reply({ error: '{"error" is not a body' })).toMatchObject({ message: '{"error" is not a body' });
  });

  it('reads an overflow a server answers with a 500, in its exact words, as the 400 it means; any other 500 stays one', () => {
    // ik_llama.cpp's llama-server (examples/server/server.cpp: ERROR_TYPE_SERVER when context shift is off).
    const ikLlama = {
      error: { code: 500, message: 'the request exceeds the available context size, try increasing it', type: 'server_error' },
    };
    // Xinference running vLLM's engine: FastAPI's `detail` (xorbitsai/inference#3785).
    const xinference = {
      detail:
        '[address=0.0.0.0:43769, pid=1065] The decoder prompt (length 66501) is longer than the maximum model length of 65536. Make sure that `max_model_len` is no smaller than the number of text tokens.',
    };
    // mlx-engine's server: any exception other than a request error (mlx_engine/server/http.py).
    const mlx = { error: { message: 'Prepared prompt has 9,120 tokens, exceeding the fitted 8,192-token context' } };
    for (const body of [ikLlama, xinference, mlx]) {
      expect(errorFromUpstreamStatus({ status: 500, body, provider: 'up' })).toMatchObject({
        status: 400,
        type: 'invalid_request_error',
        code: 'context_length_exceeded',
        upstreamStatus: 400,
      });
    }
    // llama-server's KV cache filled while decoding: other requests may have filled it; still the server's 500.
    const kvFull = { error: { code: 500, message: 'Context size has been exceeded.', type: 'server_error' } };
    const mentioned = { error: { code: 500, message: 'slot failed: the request exceeds the available context size, try increasing it' } };
    for (const body of [kvFull, mentioned]) {
      expect(errorFromUpstreamStatus({ status: 500, body, provider: 'up' })).toMatchObject({
        status: 500,
        code: 'upstream_http_500',
        upstreamStatus: 500,
      });
    }
    expect(errorFromUpstreamStatus({ status: 503, body: ikLlama, provider: 'up' })).toMatchObject({
      status: 503,
      code: 'upstream_http_503',
    });
  });

  it("passes no param with a 5xx, whose message is the gateway's own", () => {
    const failed = errorFromUpstreamStatus({ status: 500, body: { error: { message: 'boom', param: 'x', code: 500 } }, provider: 'up' });
    expect(failed).toMatchObject({ param: null, code: 'upstream_http_500' });
  });
});

describe('errorFromInBandOverflow', () => {
  it('is a 400 context_length_exceeded in the server words for an overflow sent inside a 200, and nothing for another error', () => {
    const words = 'request (9000 tokens) exceeds the available context size (8192 tokens), try increasing it';
    expect(errorFromInBandOverflow({ error: { code: 400, message: words, type: 'exceed_context_size_error' } })).toMatchObject({
      status: 400,
      type: 'invalid_request_error',
      code: 'context_length_exceeded',
      message: words,
    });
    expect(errorFromInBandOverflow({ error: 'the input length exceeds the context length' })).toMatchObject({ status: 400 });
    // mlx-engine's server in a stream: `{"error": {"message": …}}` (mlx_engine/server/http.py).
    const mlx = 'Prepared prompt has 9,120 tokens, exceeding the fitted 8,192-token context';
    expect(errorFromInBandOverflow({ error: { message: mlx } })).toMatchObject({ code: 'context_length_exceeded', message: mlx });
    expect(errorFromInBandOverflow({ error: { message: 'the model crashed', type: 'server_error' } })).toBeUndefined();
  });
});
