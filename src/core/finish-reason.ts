/** Why generation stopped: a unified value plus the provider's raw reason. */
export type UnifiedFinishReason = 'stop' | 'length' | 'tool-calls' | 'content-filter' | 'error' | 'other';

export type FinishReason = {
  unified: UnifiedFinishReason;
  raw?: string;
};
