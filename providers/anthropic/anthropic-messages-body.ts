/**
 * The Anthropic Messages request body as this adapter sends it (one source for the wire shape).
 * See https://docs.anthropic.com/en/api/messages
 */

/** A prompt-cache breakpoint (https://docs.anthropic.com/en/docs/build-with-claude/prompt-caching). */
export type AnthropicCacheControl = { type: 'ephemeral'; ttl?: string };
type Cached = { cache_control?: AnthropicCacheControl };

export type AnthropicBase64Source = { type: 'base64'; media_type: string; data: string };
export type AnthropicUrlSource = { type: 'url'; url: string };

export type AnthropicTextBlock = { type: 'text'; text: string } & Cached;
export type AnthropicImageBlock = { type: 'image'; source: AnthropicBase64Source | AnthropicUrlSource } & Cached;
export type AnthropicDocumentBlock = {
  type: 'document';
  source: AnthropicBase64Source | AnthropicUrlSource;
  title?: string;
} & Cached;
export type AnthropicThinkingBlock = { type: 'thinking'; thinking: string; signature: string };
/** Thinking Claude encrypted: `data` is opaque and goes back as it came. */
export type AnthropicRedactedThinkingBlock = { type: 'redacted_thinking'; data: string };
export type AnthropicToolUseBlock = { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> } & Cached;
export type AnthropicToolResultBlock = {
  type: 'tool_result';
  tool_use_id: string;
  /** Text, or text, image and document blocks: a tool's screenshot or PDF goes here (https://docs.anthropic.com/en/api/messages, tool_result content). */
  content?: string | (AnthropicTextBlock | AnthropicImageBlock | AnthropicDocumentBlock)[];
  is_error?: boolean;
} & Cached;

export type AnthropicUserBlock = AnthropicTextBlock | AnthropicImageBlock | AnthropicDocumentBlock | AnthropicToolResultBlock;
export type AnthropicAssistantBlock = AnthropicTextBlock | AnthropicThinkingBlock | AnthropicRedactedThinkingBlock | AnthropicToolUseBlock;

export type AnthropicMessage = { role: 'user'; content: AnthropicUserBlock[] } | { role: 'assistant'; content: AnthropicAssistantBlock[] };

/** `strict`: grammar-constrained input (https://platform.claude.com/docs/en/agents-and-tools/tool-use/strict-tool-use). */
export type AnthropicCustomTool = { name: string; description?: string; input_schema: Record<string, unknown>; strict?: boolean } & Cached;

/**
 * An Anthropic-defined client tool (`{"type":"bash_20250124","name":"bash"}`, a computer tool with its display
 * size, …), as the client defined it: https://platform.claude.com/docs/en/agents-and-tools/tool-use/overview.
 */
export type AnthropicDefinedToolBody = { type: string; name: string; [field: string]: unknown } & Cached;

export type AnthropicTool = AnthropicCustomTool | AnthropicDefinedToolBody;

export type AnthropicToolChoice =
  | { type: 'auto'; disable_parallel_tool_use?: boolean }
  | { type: 'any'; disable_parallel_tool_use?: boolean }
  | { type: 'tool'; name: string; disable_parallel_tool_use?: boolean }
  | { type: 'none' };

export type AnthropicMessagesBody = {
  model: string;
  max_tokens: number;
  /** Text, or blocks when a breakpoint marks them. */
  system?: string | AnthropicTextBlock[];
  messages: AnthropicMessage[];
  tools?: AnthropicTool[];
  tool_choice?: AnthropicToolChoice;
  temperature?: number;
  top_p?: number;
  top_k?: number;
  stop_sequences?: string[];
  metadata?: { user_id: string };
  thinking?: { type: 'enabled'; budget_tokens: number } | { type: 'adaptive' };
  /**
   * Structured outputs, GA form (https://platform.claude.com/docs/en/build-with-claude/structured-outputs),
   * and the effort (https://platform.claude.com/docs/en/build-with-claude/effort).
   */
  output_config?: { format?: { type: 'json_schema'; schema: Record<string, unknown> }; effort?: string };
  /** SSE for streaming clients; one whole `message` object for clients that read the reply whole. */
  stream: boolean;
  /** A Messages client's context editing, as sent (https://platform.claude.com/docs/en/build-with-claude/context-editing). */
  context_management?: unknown;
  /** A Messages client's service tier (`auto`, `standard_only`), as sent. */
  service_tier?: unknown;
};
