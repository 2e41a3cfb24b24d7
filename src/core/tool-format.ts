/**
 * A tool-call syntax family (hermes, qwen3-coder, mistral, harmony, …): how tools and earlier calls
 * are written into a prompt, and how a model's text is parsed back into calls. Pure: no I/O.
 */
import type { Message, ToolCallPart } from './message.js';
import type { ToolChoice, ToolDefinition } from './tool-definition.js';

/** What a parser recognises in model text, in order of appearance. */
export type ParsedEvent =
  | { type: 'text'; text: string }
  | { type: 'reasoning'; text: string }
  /** A complete call to an offered tool. `arguments` is canonical JSON text of an object. */
  | { type: 'tool-call'; name: string; arguments: string; id?: string }
  /** Call markup that was swallowed but yields no call: unknown tool or unreadable body. */
  | { type: 'tool-call-rejected'; code: 'invalid_tool_syntax' | 'unavailable_tool'; message: string; text: string }
  /** An envelope that opened but never closed with a readable call (cut off, or malformed at the end). */
  | { type: 'tool-call-unparsed'; format: string; text: string; reason: 'unclosed' | 'malformed' }
  /** Something the client should know about how the text was read (e.g. reasoning without its open tag). */
  | { type: 'warning'; code: string; message: string };

/**
 * A synchronous incremental parser. `push` may be called with any split of the text; the merged
 * events of all `push` calls and the final `finish` must not depend on how the text was split.
 * It holds back only a possible partial marker at the end of its buffer, never a fixed delay.
 */
export interface ToolCallParser {
  push(text: string): readonly ParsedEvent[];
  finish(): readonly ParsedEvent[];
}

export type ParserOptions = {
  /**
   * The chat template already opened the family's reasoning block (DeepSeek-R1, QwQ, Qwen3 thinking
   * models), so the reply starts inside reasoning and its first `</think>` has no opener in the text.
   * Should the reply end without that close tag, its text is read again as the reply, with a warning.
   */
  startsInReasoning?: boolean;
};

export interface ToolFormat {
  /** The family id, e.g. `hermes`. */
  readonly family: string;
  /**
   * The family's markers that are special tokens in its models' tokenizers (removed by servers that
   * skip special tokens); empty when none are. Each family's file says where the list was read.
   */
  readonly specialTokens?: readonly string[];
  /**
   * The family's models' own chat templates render the tool list and earlier calls and results
   * faithfully, so a server that renders through the template without parsing calls (vLLM with
   * `tool_choice: "none"`, llama-server's /apply-template) may be sent them structurally. Each
   * family's file says why it is, or is not, set.
   */
  readonly templateRendersTools?: boolean;
  /**
   * The model's encoder shows every turn's reasoning once tools are declared (DeepSeek V4's
   * `encode_messages` turns `drop_thinking` off when a message carries tools), which the server, declared
   * none in the prompted lane, would drop: the lane asks for it with these chat-template kwargs and
   * replays the turns' reasoning (ChatRequest.replayReasoning). Absent: reasoning is not replayed.
   */
  readonly thinkingWithTools?: { readonly chatTemplateKwargs: Readonly<Record<string, unknown>> };
  /**
   * An earlier assistant turn's reasoning written into its text as the family's chat template renders
   * it (Qwen3's `<think>\n…\n</think>\n\n` before the content), for the prompted lane to send a server
   * that takes no reasoning field (LM Studio, an unknown one) the reasoning the template keeps. `text` is
   * the turn's text (its calls already written in). Absent where the template cannot be given it in the
   * text: each family's file says why.
   */
  renderReasoningInText?(reasoning: string, text: string): string;
  /** The system-prompt fragment describing the tools and how to call them. */
  renderTools(tools: ToolDefinition[], choice: ToolChoice): string;
  /**
   * For a family whose chat template puts (part of) its tool prompt elsewhere than after the system text
   * (Mistral's `[AVAILABLE_TOOLS]` before the last user turn, its instructions before the system text):
   * the rendered history with that placed, and what is left for the usual place (appended to the system
   * message), possibly empty. Absent: the whole prompt goes to the usual place.
   */
  placeToolPrompt?(messages: Message[], prompt: string): { messages: Message[]; rest: string };
  /**
   * Rewrites earlier assistant tool calls and tool results into this family's text form, so that
   * the result holds only system/user/assistant messages with text. Deterministic (byte-stable).
   */
  renderHistory(messages: Message[]): Message[];
  /** One call in this syntax (also used to rewrite calls for downstream agents). */
  renderCall(call: Pick<ToolCallPart, 'name' | 'arguments'> & { id?: string }): string;
  /** A fresh parser for one reply; only names in `tools` become calls. */
  createParser(tools: ToolDefinition[], options?: ParserOptions): ToolCallParser;
}
