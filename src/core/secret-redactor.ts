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

function escapeForPattern(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export class SecretRedactor {
  /**
   * One alternation of every secret, longest first (so that a secret containing another is replaced
   * whole). Why a RegExp rather than a loop of includes(): V8 scans a log line once for all of them,
   * about 0.2 µs per 300-character request line for 4 or 64 secrets alike (the loop: 0.5 µs for 4, 6 µs for 64).
   */
  private readonly pattern: RegExp | undefined;
  private readonly everyOccurrence: RegExp | undefined;

  constructor(secrets: Iterable<string>) {
    const forms = new Set<string>();
    for (const secret of secrets) {
      if (secret.length < shortestRedactedSecret) continue;
      forms.add(secret);
      forms.add(jsonForm(secret));
    }
    if (forms.size === 0) return;
    const source = [...forms]
      .sort((a, b) => b.length - a.length)
      .map(escapeForPattern)
      .join('|');
    this.pattern = new RegExp(source);
    this.everyOccurrence = new RegExp(source, 'g');
  }

  /** Whether there is anything to redact (with no secrets configured the log needs no hook at all). */
  get active(): boolean {
    return this.pattern !== undefined;
  }

  /** `text` with every secret replaced; the same string when it holds none (the common case). */
  redact(text: string): string {
    if (!this.pattern?.test(text)) return text;
    return text.replace(this.everyOccurrence as RegExp, redactionMark);
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
      retryAfterMs: error.retryAfterMs,
      upstreamStatus: error.upstreamStatus,
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
