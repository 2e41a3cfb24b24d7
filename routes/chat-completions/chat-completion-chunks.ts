/**
 * Neutral events → `chat.completion.chunk` objects, following the wire contract the SDKs rely on:
 * role on the first delta; a call's first fragment carries index, id, type, name and arguments "";
 * later fragments only index and argument text; finish_reason on the last choice chunk only.
 */
import type { Diagnostics } from '../../src/core/diagnostics.js';
import type { FinishReason } from '../../src/core/finish-reason.js';
import type { Usage } from '../../src/core/usage.js';
import { renderDiagnostics } from '../shared/render-diagnostics.js';
import { toOpenAiFinishReason, toOpenAiUsage } from '../shared/openai-wire.js';

export class ChatCompletionChunks {
  private readonly prefix: string;

  constructor(id: string, created: number, model: string) {
    // Every chunk shares these fields; serialise them once.
    this.prefix = `{"id":${JSON.stringify(id)},"object":"chat.completion.chunk","created":${created},"model":${JSON.stringify(model)}`;
  }

  private choice(delta: string, finishReason: string | null = null): string {
    return `${this.prefix},"choices":[{"index":0,"delta":${delta},"logprobs":null,"finish_reason":${finishReason === null ? 'null' : JSON.stringify(finishReason)}}]}`;
  }

  role(): string {
    return this.choice('{"role":"assistant","content":""}');
  }

  text(delta: string): string {
    return this.choice(`{"content":${JSON.stringify(delta)}}`);
  }

  reasoning(delta: string): string {
    return this.choice(`{"reasoning_content":${JSON.stringify(delta)}}`);
  }

  toolCallStart(index: number, id: string, name: string): string {
    return this.choice(
      `{"tool_calls":[{"index":${index},"id":${JSON.stringify(id)},"type":"function","function":{"name":${JSON.stringify(name)},"arguments":""}}]}`,
    );
  }

  toolCallArguments(index: number, argumentsDelta: string): string {
    return this.choice(`{"tool_calls":[{"index":${index},"function":{"arguments":${JSON.stringify(argumentsDelta)}}}]}`);
  }

  finish(reason: FinishReason, diagnostics: Diagnostics | undefined): string {
    return this.withDiagnostics(this.choice('{}', toOpenAiFinishReason(reason)), diagnostics);
  }

  usage(usage: Usage, diagnostics: Diagnostics | undefined): string {
    return this.withDiagnostics(`${this.prefix},"choices":[],"usage":${JSON.stringify(toOpenAiUsage(usage) ?? null)}}`, diagnostics);
  }

  private withDiagnostics(chunk: string, diagnostics: Diagnostics | undefined): string {
    const wire = renderDiagnostics(diagnostics);
    return wire ? `${chunk.slice(0, -1)},"diagnostics":${JSON.stringify(wire)}}` : chunk;
  }
}
