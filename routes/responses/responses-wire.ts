/**
 * The OpenAI Responses wire shapes this route writes (a subset of the official OpenAPI document's
 * `Response`, output items and `ResponseStreamEvent`); what it reads is typed from its request schema.
 */

export type WireOutputText = { type: 'output_text'; text: string; annotations: unknown[]; logprobs: unknown[] };

/** A declined request (`RefusalContent`): the model's words, or its provider's explanation. */
export type WireRefusal = { type: 'refusal'; refusal: string };

export type ItemStatus = 'in_progress' | 'completed' | 'incomplete';

export type WireMessageItem = {
  id: string;
  type: 'message';
  status: ItemStatus;
  role: 'assistant';
  content: (WireOutputText | WireRefusal)[];
};

export type WireReasoningItem = {
  id: string;
  type: 'reasoning';
  summary: { type: 'summary_text'; text: string }[];
  /** Only for a signed reasoning block (see signed-reasoning.ts); OpenAI's own blobs never pass through. */
  encrypted_content?: string;
  status?: ItemStatus;
};

export type WireFunctionCallItem = {
  id: string;
  type: 'function_call';
  status: ItemStatus;
  call_id: string;
  name: string;
  arguments: string;
  /** Set when the tool came from a `namespace` tool, as OpenAI returns it. */
  namespace?: string;
};

export type WireCustomToolCallItem = {
  id: string;
  type: 'custom_tool_call';
  status: ItemStatus;
  call_id: string;
  name: string;
  input: string;
  namespace?: string;
};

export type WireOutputItem = WireMessageItem | WireReasoningItem | WireFunctionCallItem | WireCustomToolCallItem;

export type ResponseStatus = 'completed' | 'failed' | 'in_progress' | 'incomplete';

export type WireResponsesUsage = {
  input_tokens: number;
  input_tokens_details: { cached_tokens: number; cache_write_tokens: number };
  output_tokens: number;
  output_tokens_details: { reasoning_tokens: number };
  total_tokens: number;
  /** Extension: what the reply cost in USD, when the gateway knows the model's price. */
  cost_usd?: number;
};

/** The `Response` object; every field the spec marks required is always present. */
export type WireResponse = {
  id: string;
  object: 'response';
  created_at: number;
  status: ResponseStatus;
  completed_at: number | null;
  error: { code: string; message: string } | null;
  incomplete_details: { reason: 'max_output_tokens' | 'content_filter' } | null;
  instructions: string | null;
  max_output_tokens: number | null;
  model: string;
  output: WireOutputItem[];
  parallel_tool_calls: boolean;
  previous_response_id: string | null;
  reasoning: Record<string, unknown> | null;
  store: boolean;
  temperature: number | null;
  text: Record<string, unknown>;
  tool_choice: unknown;
  tools: unknown[];
  top_p: number | null;
  truncation: string;
  /** Absent until the response finished, or when the upstream reported no counts (the spec has no null here). */
  usage?: WireResponsesUsage;
  /** Absent unless the request gave one (the spec has no null here). */
  user?: string;
  metadata: Record<string, unknown>;
  /** Gateway extension (README: What the gateway adds to responses). */
  diagnostics?: unknown;
};

/** A stream event before its `sequence_number` is stamped on. */
export type WireStreamEvent = Record<string, unknown> & { type: string };
