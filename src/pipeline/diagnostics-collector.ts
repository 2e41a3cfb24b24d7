/** Gathers tool-call diagnostics and warnings over one response, for the final `finish` event. */
import type { Diagnostics } from '../core/diagnostics.js';
import type { ParsedEvent } from '../core/tool-format.js';
import type { Warning } from '../core/warning.js';

type Problem = Extract<ParsedEvent, { type: 'tool-call-rejected' | 'tool-call-unparsed' }>;

export class DiagnosticsCollector {
  private readonly diagnostics: Diagnostics = {};
  private readonly warnings: Warning[] = [];

  constructor(private readonly availableTools: string[]) {}

  warn(warning: Warning): void {
    this.warnings.push(warning);
  }

  /** The first problem of each kind fills the structured field; later ones become warnings. */
  report(problem: Problem): void {
    if (problem.type === 'tool-call-rejected') {
      if (!this.diagnostics.toolCallError) {
        this.diagnostics.toolCallError = { code: problem.code, message: problem.message, availableTools: this.availableTools };
      } else this.warn({ code: problem.code, message: problem.message });
      return;
    }
    if (!this.diagnostics.unparsedToolCall) {
      this.diagnostics.unparsedToolCall = { format: problem.format, text: problem.text, reason: problem.reason };
    } else this.warn({ code: problem.reason, message: `Unparsed ${problem.format} tool call (${problem.reason}).` });
  }

  /** Merges into diagnostics that came from elsewhere (e.g. the provider). */
  result(existing?: Diagnostics): Diagnostics | undefined {
    const merged: Diagnostics = { ...existing, ...this.diagnostics };
    const warnings = [...(existing?.warnings ?? []), ...this.warnings];
    if (warnings.length) merged.warnings = warnings;
    else delete merged.warnings;
    return merged.toolCallError || merged.unparsedToolCall || merged.warnings ? merged : undefined;
  }
}
