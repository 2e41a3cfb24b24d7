/**
 * Remembers rendered tool prompts. Agents resend the same tools on every turn, and rendering hundreds
 * of schemas costs more than keying them, so the prompt (and the budget's warnings) is computed once
 * per distinct family + tool_choice + tools and reused. A known list (deeply frozen and shared between
 * requests, see src/core/immutable-values.ts) is found by identity, which spares serialising it as a
 * key; any other list by its JSON text, in a small LRU (Map iteration order is insertion order).
 */
import { freezeDeeply, isDeeplyFrozen } from '../core/immutable-values.js';
import type { ToolChoice, ToolDefinition } from '../core/tool-definition.js';
import type { ToolFormat } from '../core/tool-format.js';
import type { Warning } from '../core/warning.js';
import { applyPromptBudget } from './apply-prompt-budget.js';

export type RenderedToolPrompt = { prompt: string; warnings: Warning[] };

export class ToolPromptCache {
  private readonly entries = new Map<string, RenderedToolPrompt>();
  /** Per known list, its prompts by family and choice: they live as long as the list does. */
  private readonly byKnownList = new WeakMap<readonly ToolDefinition[], Map<string, RenderedToolPrompt>>();

  constructor(private readonly capacity = 128) {}

  render(format: ToolFormat, tools: ToolDefinition[], choice: ToolChoice): RenderedToolPrompt {
    const settings = `${format.family}\u0000${JSON.stringify(choice)}`;
    if (!isDeeplyFrozen(tools)) return this.renderByText(format, tools, choice, settings);
    let prompts = this.byKnownList.get(tools);
    if (!prompts) {
      prompts = new Map();
      this.byKnownList.set(tools, prompts);
    }
    let entry = prompts.get(settings);
    if (!entry) {
      entry = this.renderByText(format, tools, choice, settings);
      prompts.set(settings, entry);
    }
    return entry;
  }

  private renderByText(format: ToolFormat, tools: ToolDefinition[], choice: ToolChoice, settings: string): RenderedToolPrompt {
    const key = `${settings}\u0000${JSON.stringify(tools)}`;
    const cached = this.entries.get(key);
    if (cached) {
      this.entries.delete(key);
      this.entries.set(key, cached);
      return cached;
    }
    const budgeted = applyPromptBudget(tools);
    const rendered = choice.type === 'tool' ? budgeted.tools.filter((tool) => tool.name === choice.name) : budgeted.tools;
    // Frozen: every request with these tools gets this same entry.
    const entry = freezeDeeply({ prompt: rendered.length ? format.renderTools(rendered, choice) : '', warnings: budgeted.warnings });
    this.entries.set(key, entry);
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value as string);
    return entry;
  }
}
