/** Why generation stopped: a unified value plus the provider's raw reason. */
export type UnifiedFinishReason = 'stop' | 'length' | 'tool-calls' | 'content-filter' | 'error' | 'other';

export type FinishReason = {
  unified: UnifiedFinishReason;
  raw?: string;
  /**
   * Which of the request's stop sequences ended the reply, when the upstream says so (Anthropic's
   * `stop_sequence`); the Messages API reports it back. https://docs.anthropic.com/en/api/messages
   */
  stopSequence?: string;
  /**
   * The model declined to answer, as the provider says (Anthropic's `stop_reason: "refusal"`): the explanation
   * the finish brings (`stop_details.explanation`), else ''. OpenAI's wire carries a refusal apart from the
   * content (`message.refusal`, `delta.refusal`); the Chat route puts it there, the Responses route in a
   * `refusal` part.
   */
  refusal?: string;
  /**
   * True when the model's reply itself was the refusal, its words sent before the finish as `refusal-delta`
   * events (`refusal` is then ''): OpenAI sends the words of a declined request in `refusal` instead of
   * `content` (structured outputs refusals, https://platform.openai.com/docs/guides/structured-outputs#refusals).
   * A wire with no refusal member of its own (Anthropic Messages) shows them as the reply's text.
   */
  refusalIsReply?: boolean;
  /** The kind of harm a refusal names, when the provider says (Anthropic's `stop_details.category`: `cyber`, `bio`, …). */
  refusalCategory?: string;
};
