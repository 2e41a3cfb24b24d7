/** Provider-neutral tool definitions and tool choice. */
import type { CacheMark } from './message.js';

/** An example call shown to prompted models; never sent to native providers. */
export type ToolExample = {
  description?: string;
  arguments: Record<string, unknown>;
};

/** See `ToolDefinition.anthropicTool`. */
export type AnthropicDefinedTool = { type: string; [field: string]: unknown };

export type ToolDefinition = {
  name: string;
  description?: string;
  /** The tool's JSON Schema for its arguments, exactly as the client sent it. */
  parameters: Record<string, unknown>;
  strict?: boolean | null;
  /** A prompt-cache breakpoint after this tool (Anthropic's `cache_control` on a tool). */
  cache?: CacheMark;
  /**
   * An Anthropic-defined client tool (bash, text editor, computer, memory) as the client defined it: its `type`
   * and the other fields its definition takes (`display_width_px`, `max_characters`, …), without `name`. Claude
   * was trained on these tools, so a Claude upstream gets this form; any other model gets `parameters`, the
   * input Anthropic documents for the tool.
   */
  anthropicTool?: AnthropicDefinedTool;
  /** Prompt metadata (prompted lane only). */
  whenToUse?: string;
  tags?: string[];
  examples?: ToolExample[];
};

export type ToolChoice = { type: 'auto' } | { type: 'none' } | { type: 'required' } | { type: 'tool'; name: string };
