/** Provider-neutral tool definitions and tool choice. */
import type { CacheMark } from './message.js';

/** An example call shown to prompted models; never sent to native providers. */
export type ToolExample = {
  description?: string;
  arguments: Record<string, unknown>;
};

export type ToolDefinition = {
  name: string;
  description?: string;
  /** The tool's JSON Schema for its arguments, exactly as the client sent it. */
  parameters: Record<string, unknown>;
  strict?: boolean | null;
  /** A prompt-cache breakpoint after this tool (Anthropic's `cache_control` on a tool). */
  cache?: CacheMark;
  /** Prompt metadata (prompted lane only). */
  whenToUse?: string;
  tags?: string[];
  examples?: ToolExample[];
};

export type ToolChoice = { type: 'auto' } | { type: 'none' } | { type: 'required' } | { type: 'tool'; name: string };
