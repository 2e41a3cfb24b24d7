/**
 * The last N prompted-lane replies, the model's raw text next to what the client got, for the inspector.
 * Off by default (`debug.recentReplies`); kept in memory only, in a bounded ring, with configured secrets
 * redacted as each reply is recorded.
 */
import type { Diagnostics } from '../core/diagnostics.js';
import type { FinishReason } from '../core/finish-reason.js';
import type { StreamEvent } from '../core/stream-event.js';
import { redactJsonStrings } from '../core/redact-json-strings.js';
import { applyStage, type EventStage } from './event-stage.js';

export type RecordedCall = { id: string; name: string; arguments: string };

export type RecentReply = {
  id: string;
  /** ISO time the reply finished. */
  time: string;
  /** As the client addressed it, e.g. `local/Qwen/Qwen3-8B`. */
  model: string;
  /** The client key's name (`server.apiKeys`); null without client auth. Only that key is shown the reply. */
  key: string | null;
  family: string;
  /** What the model wrote, markup and all. */
  raw: string;
  content: string;
  reasoning: string;
  calls: RecordedCall[];
  diagnostics?: Diagnostics;
  finishReason?: FinishReason;
  /** Set when the reply ended in an error instead of a finish. */
  error?: string;
};

export type Redact = (text: string) => string;

/**
 * Bounded by count and by size: each of a reply's texts (the raw text, content, reasoning, every call's
 * arguments) is cut at this many characters, and its calls at `maximumCalls`, so that a kept reply costs
 * at most a few hundred KB however large the upstream's reply was (up to its provider's `limits`).
 */
const maximumRawCharacters = 64 * 1024;
const maximumCalls = 16;

function cut(text: string): string {
  return text.length > maximumRawCharacters ? `${text.slice(0, maximumRawCharacters)}… (cut at ${maximumRawCharacters} characters)` : text;
}

export class RecentReplies {
  private readonly replies: RecentReply[] = [];

  constructor(
    readonly capacity: number,
    private readonly redact: Redact,
  ) {}

  record(reply: RecentReply): void {
    // Each text is redacted before it is cut: a secret that straddled the cut would keep its first half.
    const kept: RecentReply = {
      ...reply,
      raw: cut(this.redact(reply.raw)),
      content: cut(this.redact(reply.content)),
      reasoning: cut(this.redact(reply.reasoning)),
      calls: reply.calls.slice(0, maximumCalls).map((call) => ({ ...call, arguments: cut(this.redact(call.arguments)) })),
    };
    // Then every other string in it (diagnostics, error, names), one by one: the serialised reply spells a
    // secret that a diagnostic quotes from the model's JSON escaped twice, and replacing there can break it.
    const redacted = redactJsonStrings(kept, this.redact) as RecentReply;
    this.replies.push(redacted);
    if (this.replies.length > this.capacity) this.replies.shift();
  }

  /** Newest first; only the replies to `key` (a key never sees another key's replies; null: no client auth). */
  list(key: string | null): RecentReply[] {
    const visible: RecentReply[] = [];
    for (let index = this.replies.length - 1; index >= 0; index--) {
      const reply = this.replies[index] as RecentReply;
      if (reply.key === key) visible.push(reply);
    }
    return visible;
  }
}

/** Collects the upstream's raw text as it passes (before parsing). */
export class RawTextTap implements EventStage {
  raw = '';
  finished = false;

  push(event: StreamEvent, out: StreamEvent[]): void {
    if (event.type === 'text-delta') this.raw += event.delta;
    out.push(event);
  }

  end(): void {}
}

export type RecordedReplyMeta = Pick<RecentReply, 'model' | 'family' | 'key'>;

/** Collects what the client gets (after every stage) and records it when the reply ends. */
export class ClientReplyTap implements EventStage {
  finished = false;
  private readonly reply: RecentReply;

  constructor(
    private readonly replies: RecentReplies,
    private readonly raw: RawTextTap,
    meta: RecordedReplyMeta,
  ) {
    const { model, family, key } = meta;
    this.reply = { id: '', time: '', model, family, key, raw: '', content: '', reasoning: '', calls: [] };
  }

  push(event: StreamEvent, out: StreamEvent[]): void {
    const { reply } = this;
    switch (event.type) {
      case 'response-start':
        reply.id = event.id;
        break;
      case 'text-delta':
        reply.content += event.delta;
        break;
      case 'reasoning-delta':
        reply.reasoning += event.delta;
        break;
      case 'tool-call-start':
        reply.calls[event.index] = { id: event.id, name: event.name, arguments: '' };
        break;
      case 'tool-call-end': {
        const call = reply.calls[event.index];
        if (call) call.arguments = event.arguments;
        break;
      }
      case 'finish':
        if (event.diagnostics) reply.diagnostics = event.diagnostics;
        reply.finishReason = event.reason;
        this.done();
        break;
      case 'error':
        reply.error = event.error.message;
        this.done();
        break;
      default:
        break;
    }
    out.push(event);
  }

  end(): void {
    this.done();
  }

  private done(): void {
    if (this.finished) return;
    this.finished = true;
    this.reply.time = new Date().toISOString();
    this.reply.raw = this.raw.raw;
    this.replies.record(this.reply);
  }
}

/** Runs `parse` over the upstream's events with both taps around it, so the reply is recorded when it ends. */
export function recordedReply(
  replies: RecentReplies,
  meta: RecordedReplyMeta,
  upstream: AsyncIterable<StreamEvent>,
  parse: (upstream: AsyncIterable<StreamEvent>) => AsyncIterable<StreamEvent>,
): AsyncIterable<StreamEvent> {
  const raw = new RawTextTap();
  return applyStage(parse(applyStage(upstream, raw)), new ClientReplyTap(replies, raw, meta));
}
