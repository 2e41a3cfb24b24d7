/** Provider-neutral conversation messages and their parts. */

export type TextPart = { type: 'text'; text: string };

/** An image, audio clip or document: `data` is a URL (http(s) or data:) or base64 text. */
export type FilePart = {
  type: 'file';
  mediaType: string;
  data: string;
  filename?: string;
  /** Provider hints such as OpenAI's image `detail`. */
  detail?: string;
};

export type ReasoningPart = {
  type: 'reasoning';
  text: string;
  /** Opaque provider signature (Anthropic thinking) that must round-trip unchanged. */
  signature?: string;
};

export type ToolCallPart = {
  type: 'tool-call';
  id: string;
  name: string;
  /** JSON text of the arguments object. */
  arguments: string;
};

export type ToolResultPart = {
  type: 'tool-result';
  toolCallId: string;
  /** Looked up from the assistant turn that made the call, when known. */
  toolName?: string;
  /** The result as text (array content is joined). */
  output: string;
  isError?: boolean;
};

export type SystemMessage = { role: 'system'; content: string };
export type UserMessage = { role: 'user'; content: (TextPart | FilePart)[] };
export type AssistantMessage = { role: 'assistant'; content: (TextPart | ReasoningPart | ToolCallPart)[] };
export type ToolMessage = { role: 'tool'; content: ToolResultPart[] };

export type Message = SystemMessage | UserMessage | AssistantMessage | ToolMessage;
