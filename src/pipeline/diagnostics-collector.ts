/** Gathers tool-call diagnostics and warnings over one response, for the final `finish` event. */
import type { Diagnostics, ResponseFormatError } from '../core/diagnostics.js';
import type { ToolDefinition } from '../core/tool-definition.js';
import type { ParsedEvent } from '../core/tool-format.js';
import type { Warning } from '../core/warning.js';

type Problem = Extract<ParsedEvent, { type: 'tool-call-rejected' | 'tool-call-unparsed' }>;

export class DiagnosticsCollector {
  private readonly diagnostics: Diagnostics = {};
  private readonly warnings: Warning[] = [];

  /** The request's tools: their names are listed only when a rejected call needs them, not on every request. */
  constructor(private readonly offeredTools: readonly Pick<ToolDefinition, 'name'>[]) {}

  warn(warning: Warning): void {
    this.warnings.push(warning);
  }

  /** The reply is not valid against the requested response format (see check-response-format.ts). */
  reportResponseFormat(error: ResponseFormatError): void {
    this.diagnostics.responseFormatError = error;
  }

  /** The first problem of each kind fills the structured field; later ones become warnings. */
  report(problem: Problem): void {
    if (problem.type === 'tool-call-rejected') {
      if (!this.diagnostics.toolCallError) {
        this.diagnostics.toolCallError = {
          code: problem.code,
          message: problem.message,
          availableTools: this.offeredTools.map((tool) => tool.name),
        };
      } else this.warn({ code: problem.code, message: problem.message });
      return;
    }
    if (!this.diagnostics.unparsedToolCall) {
      this.diagnostics.unparsedToolCall = { format: problem.format, text: problem.text, reason: problem.reason };
    } else this.warn({ code: problem.reason, message: `Unparsed ${problem.format} tool call (${problem.reason}).` });
  }

  /** Merges into diagnostics that came from elsewhere (e.g. the provider); undefined when there is nothing to report. */
  result(existing?: Diagnostics): Diagnostics | undefined {
    const toolCallError = this.diagnostics.toolCallError ?? existing?.toolCallError;
    const unparsedToolCall = this.diagnostics.unparsedToolCall ?? existing?.unparsedToolCall;
    const responseFormatError = this.diagnostics.responseFormatError ?? existing?.responseFormatError;
    const warnings = existing?.warnings?.length ? [...existing.warnings, ...this.warnings] : this.warnings;
    // Most replies have nothing to report: no object built for them.
    if (!toolCallError && !unparsedToolCall && !responseFormatError && !warnings.length) return undefined;
    const merged: Diagnostics = {};
    if (toolCallError) merged.toolCallError = toolCallError;
    if (unparsedToolCall) merged.unparsedToolCall = unparsedToolCall;
    if (responseFormatError) merged.responseFormatError = responseFormatError;
    if (warnings.length) merged.warnings = [...warnings];
    return merged;
  }
}
