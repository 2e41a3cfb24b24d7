/**
 * Remembers rendered tool prompts. Agents resend the same tools on every turn, and rendering hundreds
 * of schemas costs more than keying them, so the prompt (and the budget's warnings) is computed once
 * per distinct family + tool_choice + tools and reused. A shared list is found by identity, which
 * spares serialising it as a key; any other list by its JSON text (see src/core/request-caches.ts).
 */
import { freezeDeeply } from '../core/immutable-values.js';
import type { RenderedToolPrompt, RequestCaches } from '../core/request-caches.js';
import { isSharedToolList } from '../core/shared-tool-list.js';
import type { ToolChoice, ToolDefinition } from '../core/tool-definition.js';
import type { ToolFormat } from '../core/tool-format.js';
import { applyPromptBudget } from './apply-prompt-budget.js';

export type { RenderedToolPrompt } from '../core/request-caches.js';

export class ToolPromptCache {
  constructor(private readonly caches: Pick<RequestCaches, 'sharedToolPrompts' | 'toolPrompts'>) {}

  render(format: ToolFormat, tools: ToolDefinition[], choice: ToolChoice): RenderedToolPrompt {
    const settings = `${format.family}\u0000${JSON.stringify(choice)}`;
    if (isSharedToolList(tools))
      return this.caches.sharedToolPrompts.get(tools, settings, () => this.renderByText(format, tools, choice, settings));
    return this.renderByText(format, tools, choice, settings);
  }

  private renderByText(format: ToolFormat, tools: ToolDefinition[], choice: ToolChoice, settings: string): RenderedToolPrompt {
    return this.caches.toolPrompts.get(`${settings}\u0000${JSON.stringify(tools)}`, () => {
      const budgeted = applyPromptBudget(tools);
      const rendered = choice.type === 'tool' ? budgeted.tools.filter((tool) => tool.name === choice.name) : budgeted.tools;
      // Frozen: every request with these tools gets this same entry.
      return freezeDeeply({ prompt: rendered.length ? format.renderTools(rendered, choice) : '', warnings: budgeted.warnings });
    });
  }
}
