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
};
