/**
 * Replaces configured secrets (provider keys, configured upstream header values, client keys) with
 * `[REDACTED]` in text bound for a client or a log. Some upstreams echo the key they were sent in their
 * error bodies; without this, it would reach the client verbatim and every log line that quotes the error.
 *
 * Only exact secrets of at least 8 characters are replaced: a shorter value (`yes`, `1`) would blank
 * out common words all over the log and protect nothing worth protecting.
 */
import { GatewayError } from './gateway-error.js';

export const redactionMark = '[REDACTED]';
export const shortestRedactedSecret = 8;

/** A secret as it appears in JSON text (a log line), when that differs from the secret itself. */
function jsonForm(secret: string): string {
  return JSON.stringify(secret).slice(1, -1);
}

export class SecretRedactor {
  /** Longest first, so that a secret containing another one is replaced whole. */
  private readonly secrets: readonly string[];

  constructor(secrets: Iterable<string>) {
    const forms = new Set<string>();
    for (const secret of secrets) {
      if (secret.length < shortestRedactedSecret) continue;
      forms.add(secret);
      forms.add(jsonForm(secret));
    }
    this.secrets = [...forms].sort((a, b) => b.length - a.length);
  }

  /** Whether there is anything to redact (with no secrets configured the log needs no hook at all). */
  get active(): boolean {
    return this.secrets.length > 0;
  }

  /** `text` with every secret replaced; the same string when it holds none (the common case: one scan per secret). */
  redact(text: string): string {
    let result = text;
    for (const secret of this.secrets) if (result.includes(secret)) result = result.replaceAll(secret, redactionMark);
    return result;
  }

  /**
   * The error a client may see: the same error when its message and upstream body hold no secret, else
   * a copy with both redacted (the cause is kept for the log, which redacts on its own).
   */
  redactError(error: GatewayError): GatewayError {
    if (!this.active) return error;
    const message = this.redact(error.message);
    const upstreamBody = this.redactValue(error.upstreamBody);
    if (message === error.message && upstreamBody === error.upstreamBody) return error;
    return new GatewayError({
      status: error.status,
      type: error.type,
      message,
      code: error.code,
      param: error.param,
      retryAfter: error.retryAfter,
      upstreamBody,
      cause: error.cause,
    });
  }

  /** A JSON value with secrets redacted in its strings; the same value when there were none. */
  private redactValue(value: unknown): unknown {
    if (value === undefined || value === null) return value;
    if (typeof value === 'string') return this.redact(value);
    let json: string;
    try {
      json = JSON.stringify(value);
    } catch {
      return undefined;
    }
    const redacted = this.redact(json);
    return redacted === json ? value : (JSON.parse(redacted) as unknown);
  }
}

/** For code paths built without a config (tests, tools): nothing is redacted. */
export const noSecrets = new SecretRedactor([]);
