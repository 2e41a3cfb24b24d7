/**
 * Keeps tool metadata within the prompt budget of the prompted lane: descriptions over 200
 * characters, `whenToUse` over 240 and more than 3 examples are trimmed at a sentence boundary,
 * with a warning naming the tool. A tool is never dropped.
 */
import type { ToolDefinition } from '../core/tool-definition.js';
import type { Warning } from '../core/warning.js';

export const promptBudget = { description: 200, whenToUse: 240, examples: 3 } as const;

/** Cuts at the last sentence end that fits; failing that, the last word boundary, with an ellipsis. */
export function trimAtSentence(text: string, limit: number): string {
  const collapsed = text.replace(/\s+/g, ' ').trim();
  if (collapsed.length <= limit) return collapsed;
  const window = collapsed.slice(0, limit);
  const sentenceEnd = Math.max(window.lastIndexOf('. '), window.lastIndexOf('! '), window.lastIndexOf('? '));
  if (sentenceEnd > limit / 3) return window.slice(0, sentenceEnd + 1);
  if (/[.!?]$/.test(window)) return window;
  const wordEnd = window.lastIndexOf(' ', limit - 1);
  return `${window.slice(0, wordEnd > 0 ? wordEnd : limit - 1)}…`;
}

function collapsedLength(text: string): number {
  return text.replace(/\s+/g, ' ').trim().length;
}

export function applyPromptBudget(tools: ToolDefinition[]): { tools: ToolDefinition[]; warnings: Warning[] } {
  const warnings: Warning[] = [];
  const trimmed = tools.map((tool) => {
    const changes: string[] = [];
    const result: ToolDefinition = { ...tool };
    // Checking the raw length first skips the whitespace collapse for the (usual) short texts.
    if (
      tool.description &&
      tool.description.length > promptBudget.description &&
      collapsedLength(tool.description) > promptBudget.description
    ) {
      result.description = trimAtSentence(tool.description, promptBudget.description);
      changes.push(`description (${tool.description.length} characters, limit ${promptBudget.description})`);
    }
    if (tool.whenToUse && tool.whenToUse.length > promptBudget.whenToUse && collapsedLength(tool.whenToUse) > promptBudget.whenToUse) {
      result.whenToUse = trimAtSentence(tool.whenToUse, promptBudget.whenToUse);
      changes.push(`when_to_use (${tool.whenToUse.length} characters, limit ${promptBudget.whenToUse})`);
    }
    if (tool.examples && tool.examples.length > promptBudget.examples) {
      result.examples = tool.examples.slice(0, promptBudget.examples);
      changes.push(`examples (${tool.examples.length}, limit ${promptBudget.examples})`);
    }
    if (changes.length) {
      warnings.push({ code: 'tool-prompt-trimmed', message: `Tool '${tool.name}': trimmed for the prompt: ${changes.join(', ')}.` });
    }
    return result;
  });
  return { tools: trimmed, warnings };
}
