/** The seam between the pipeline and one upstream: neutral request out, neutral events in. */
import type { Cancellation } from './cancellation.js';
import type { ChatRequest } from './chat-request.js';
import type { Logger } from './logger.js';
import type { StreamEvent } from './stream-event.js';

export type ProviderContext = {
  /** The client going away, a shutdown or a deadline: adapters hand it to the upstream client as it is. */
  cancellation: Cancellation;
  requestId: string;
  log: Logger;
  /**
   * The client reads the reply whole (a non-streaming request). An adapter may then ask its upstream
   * for one body instead of a stream: one parse instead of one per token, and the upstream's own
   * non-streaming semantics. The events it yields are the same either way.
   */
  wholeReply?: boolean;
};

export type ModelInfo = {
  /** The upstream's model id (without the provider prefix). */
  id: string;
  created?: number;
  ownedBy?: string;
};

export type EmbeddingRequest = {
  model: string;
  input: string | string[] | number[] | number[][];
  dimensions?: number;
  encodingFormat?: 'float' | 'base64';
  user?: string;
};

export type EmbeddingResult = {
  data: { index: number; embedding: number[] | string }[];
  usage?: { promptTokens: number; totalTokens: number };
};

export interface ProviderAdapter {
  /**
   * Starts one generation. The promise settles only after the upstream answered with 2xx headers,
   * so failures before the first byte reject with a GatewayError and become real HTTP errors.
   * The iterable yields `response-start` first and ends with exactly one `finish` or `error`.
   */
  stream(request: ChatRequest, context: ProviderContext): Promise<AsyncIterable<StreamEvent>>;
  /** Lists the upstream's models; absent when the upstream cannot list. */
  listModels?(context: ProviderContext): Promise<ModelInfo[]>;
  /** Creates embeddings; absent when the upstream has none. */
  embed?(request: EmbeddingRequest, context: ProviderContext): Promise<EmbeddingResult>;
  /** Releases pooled connections on shutdown. */
  close?(): Promise<void>;
}
