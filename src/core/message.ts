/** Provider-neutral conversation messages and their parts. */

/**
 * A prompt-cache breakpoint as Anthropic's Messages API marks one (`cache_control`): the prompt up to and
 * including the marked part is cached. Upstreams with explicit caching (Anthropic, Claude on Vertex AI and
 * Bedrock) take it; the others cache prefixes on their own and ignore it.
 */
export type CacheMark = { type: 'ephemeral'; ttl?: string };

export type TextPart = { type: 'text'; text: string; cache?: CacheMark };

/** An image, audio clip or document: `data` is a URL (http(s) or data:) or base64 text. */
export type FilePart = {
  type: 'file';
  mediaType: string;
  data: string;
  filename?: string;
  /** Provider hints such as OpenAI's image `detail`. */
  detail?: string;
  cache?: CacheMark;
  /**
   * The tool call whose result returned this file (a screenshot, an image a tool read). A neutral tool result
   * holds text only, so such a file travels as user content after the results; an upstream whose tool results
   * take images puts it back inside its result (tool-result-files.ts).
   */
  fromToolCall?: string;
};

export type ReasoningPart = {
  type: 'reasoning';
  text: string;
  /** Opaque provider signature (Anthropic thinking) that must round-trip unchanged. */
  signature?: string;
};

/**
 * Reasoning the upstream encrypted and returns only as opaque data (Claude's `redacted_thinking`, Bedrock's
 * `reasoningContent.redactedContent` as base64). Claude decrypts it when it comes back, and requires a tool
 * loop's last turn to hand it back unchanged and in its place; no other model can read it.
 * https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking#thinking-redaction
 */
export type RedactedReasoningPart = { type: 'redacted-reasoning'; data: string };

export type ToolCallPart = {
  type: 'tool-call';
  id: string;
  name: string;
  /** JSON text of the arguments object. */
  arguments: string;
  cache?: CacheMark;
};

export type ToolResultPart = {
  type: 'tool-result';
  toolCallId: string;
  /** Looked up from the assistant turn that made the call, when known. */
  toolName?: string;
  /** The result as text (array content is joined). */
  output: string;
  isError?: boolean;
  cache?: CacheMark;
};

export type SystemMessage = { role: 'system'; content: string; cache?: CacheMark };
export type UserMessage = { role: 'user'; content: (TextPart | FilePart)[] };
export type AssistantMessage = { role: 'assistant'; content: (TextPart | ReasoningPart | RedactedReasoningPart | ToolCallPart)[] };
export type ToolMessage = { role: 'tool'; content: ToolResultPart[] };

export type Message = SystemMessage | UserMessage | AssistantMessage | ToolMessage;
