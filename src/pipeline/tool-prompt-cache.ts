/**
 * Remembers rendered tool prompts. Agents resend the same tools on every turn, and rendering hundreds
 * of schemas costs more than keying them, so the prompt (and the budget's warnings) is computed once
 * per distinct family + tool_choice + tools and reused. A small LRU: Map iteration order is insertion order.
 */
import type { ToolChoice, ToolDefinition } from '../core/tool-definition.js';
import type { ToolFormat } from '../core/tool-format.js';
import type { Warning } from '../core/warning.js';
import { applyPromptBudget } from './apply-prompt-budget.js';

export type RenderedToolPrompt = { prompt: string; warnings: Warning[] };

export class ToolPromptCache {
  private readonly entries = new Map<string, RenderedToolPrompt>();

  constructor(private readonly capacity = 128) {}

  render(format: ToolFormat, tools: ToolDefinition[], choice: ToolChoice): RenderedToolPrompt {
    const key = `${format.family}\u0000${JSON.stringify(choice)}\u0000${JSON.stringify(tools)}`;
    const cached = this.entries.get(key);
    if (cached) {
      this.entries.delete(key);
      this.entries.set(key, cached);
      return cached;
    }
    const budgeted = applyPromptBudget(tools);
    const rendered = choice.type === 'tool' ? budgeted.tools.filter((tool) => tool.name === choice.name) : budgeted.tools;
    const entry = { prompt: rendered.length ? format.renderTools(rendered, choice) : '', warnings: budgeted.warnings };
    this.entries.set(key, entry);
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value as string);
    return entry;
  }
}
