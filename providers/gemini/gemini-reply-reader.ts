/**
 * A synchronous state machine from Gemini `GenerateContentResponse` objects (one per SSE event, or the
 * one whole reply) to neutral StreamEvents. Gemini sends each function call whole in one part, thought
 * summaries as parts with `thought: true`, `usageMetadata` (running totals) on every chunk and
 * `finishReason` on the last. https://ai.google.dev/api/generate-content#v1beta.GenerateContentResponse
 */
import {
  gatewayError,
  generateCallId,
  logprobsPartialCode,
  type GatewayError,
  type StreamEvent,
  type TokenLogprob,
  type Warning,
} from '../../src/core/index.js';
import { stringifyDeepJson } from '../../src/core/stringify-deep-json.js';
import { asRecord, readString, type JsonRecord } from '../../src/http/read-loose-json.js';
import { mapGeminiStreamError } from './map-gemini-error.js';
import { mapGeminiFinishReason } from './map-gemini-finish-reason.js';
import { mapGeminiUsage } from './map-gemini-usage.js';
import { encodeGeminiCallId } from './gemini-tool-call-id.js';
import { readGeminiLogprobs, stepsAfter } from './read-gemini-logprobs.js';
import { tokensSpellingText } from '../tokens-spelling-text.js';

const logprobsPartialWarning: Warning = {
  code: logprobsPartialCode,
  message:
    "Log probabilities are missing for part of the content: a Gemini reply's tokens came with thoughts or function calls and no run of them spells its text.",
};

export type GeminiReplyReaderOptions = {
  provider: string;
  /** The model the request named, used only if the upstream never says which one answered. */
  model: string;
  /** Request-side warnings, reported on `response-start`. */
  warnings: Warning[];
};

export class GeminiReplyReader {
  private started = false;
  private finished = false;
  private nextToolIndex = 0;
  private finishReason: string | undefined;
  private blockReason: string | undefined;
  private usage: JsonRecord | undefined;
  private lastSignature: string | undefined;
  /** Some content went out without the tokens the reply sent for it. */
  private logprobsUnpaired = false;
  /** The previous chunk's steps as sent: a cumulative stream repeats them (read-gemini-logprobs.ts `stepsAfter`). */
  private previousSteps: TokenLogprob[] | undefined;

  constructor(private readonly options: GeminiReplyReaderOptions) {}

  /** True once the terminal `finish` or `error` was produced; later input is ignored. */
  get done(): boolean {
    return this.finished;
  }

  push(parsed: unknown): StreamEvent[] {
    if (this.finished) return [];
    const payload = asRecord(parsed);
    if (!payload)
      return this.fail(
        gatewayError('upstream_unavailable', { message: `Upstream provider '${this.options.provider}' sent an unreadable stream event` }),
      );
    if (payload.error !== undefined) return this.fail(mapGeminiStreamError(payload.error, this.options.provider));
    const events = this.start(payload);
    const usage = asRecord(payload.usageMetadata);
    if (usage) this.usage = usage;
    this.blockReason = readString(asRecord(payload.promptFeedback), 'blockReason') ?? this.blockReason;
    // One candidate: the gateway never asks for more (candidateCount).
    const candidate = Array.isArray(payload.candidates) ? asRecord(payload.candidates[0]) : undefined;
    const parts = asRecord(candidate?.content)?.parts;
    const from = events.length;
    if (Array.isArray(parts)) for (const part of parts) this.readPart(asRecord(part), events);
    // Present only when asked for (generationConfig.responseLogprobs): a plain reply reads one absent member.
    const logprobsResult = candidate?.logprobsResult;
    if (logprobsResult !== undefined) this.attachLogprobs(events, from, logprobsResult);
    this.finishReason = readString(candidate, 'finishReason') ?? this.finishReason;
    return events;
  }

  /** The body ended: the terminal event, or an error when the reply was cut before its finish reason. */
  end(): StreamEvent[] {
    if (this.finished) return [];
    if (this.finishReason === undefined && this.blockReason === undefined) {
      return this.fail(
        gatewayError('upstream_unavailable', {
          message: `Upstream provider '${this.options.provider}' ended the stream before the reply finished`,
        }),
      );
    }
    this.finished = true;
    const reason =
      this.blockReason !== undefined && this.finishReason === undefined
        ? { unified: 'content-filter' as const, raw: this.blockReason }
        : mapGeminiFinishReason(this.finishReason, this.nextToolIndex > 0);
    const finish: StreamEvent = { type: 'finish', reason, usage: mapGeminiUsage(this.usage) };
    if (this.logprobsUnpaired) finish.diagnostics = { warnings: [logprobsPartialWarning] };
    return [finish];
  }

  /**
   * Gives this chunk's text its tokens (a whole reply is one chunk): all of them when text is all the chunk
   * holds, else the run that spells the text (thoughts' and calls' tokens are not content). They ride on the
   * chunk's last text delta, the one that completes them.
   */
  private attachLogprobs(events: StreamEvent[], from: number, result: unknown): void {
    let text = '';
    let last = -1;
    let textOnly = true;
    for (let position = from; position < events.length; position++) {
      const event = events[position] as StreamEvent;
      if (event.type === 'text-delta') {
        text += event.delta;
        last = position;
      } else textOnly = false;
    }
    const sent = readGeminiLogprobs(result);
    const tokens = sent && stepsAfter(this.previousSteps, sent);
    if (sent) this.previousSteps = sent;
    if (last === -1) return;
    const content = tokens && (textOnly ? tokens : tokensSpellingText(tokens, text));
    if (!content) {
      this.logprobsUnpaired = true;
      return;
    }
    events[last] = { type: 'text-delta', delta: (events[last] as { delta: string }).delta, logprobs: content };
  }

  fail(error: GatewayError): StreamEvent[] {
    if (this.finished) return [];
    this.finished = true;
    return [...this.start(undefined), { type: 'error', error }];
  }

  private start(payload: JsonRecord | undefined): StreamEvent[] {
    if (this.started) return [];
    this.started = true;
    const id = readString(payload, 'responseId') ?? `gemini-${generateCallId().slice(5)}`;
    return [
      { type: 'response-start', id, model: readString(payload, 'modelVersion') ?? this.options.model, warnings: this.options.warnings },
    ];
  }

  private readPart(part: JsonRecord | undefined, events: StreamEvent[]): void {
    if (!part) return;
    const signature = readString(part, 'thoughtSignature');
    const call = asRecord(part.functionCall);
    if (call) {
      this.readCall(call, signature, events);
      return;
    }
    const text = readString(part, 'text');
    if (text !== undefined && text !== '')
      events.push(part.thought === true ? { type: 'reasoning-delta', delta: text } : { type: 'text-delta', delta: text });
    // A thought's signature goes where clients keep reasoning signatures (Messages, Responses). A text
    // part's is optional to send back (the docs): it is not kept, as no client field could carry it.
    if (part.thought === true && signature !== undefined && signature !== this.lastSignature) {
      this.lastSignature = signature;
      events.push({ type: 'reasoning-signature', signature });
    }
  }

  private readCall(call: JsonRecord, signature: string | undefined, events: StreamEvent[]): void {
    const index = this.nextToolIndex++;
    const argumentsText = stringifyDeepJson(asRecord(call.args) ?? {});
    const id = encodeGeminiCallId(readString(call, 'id'), signature);
    events.push(
      { type: 'tool-call-start', index, id, name: readString(call, 'name') ?? '' },
      { type: 'tool-call-delta', index, argumentsDelta: argumentsText },
      { type: 'tool-call-end', index, arguments: argumentsText },
    );
  }
}
