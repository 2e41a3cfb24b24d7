/**
 * The parts of Gemini's `generateContent` request this gateway writes.
 * https://ai.google.dev/api/generate-content (request body) and https://ai.google.dev/api/caching#Content
 */

export type GeminiPart = {
  text?: string;
  /** A thought summary (only with `thinkingConfig.includeThoughts`). */
  thought?: boolean;
  /** Opaque: must go back unchanged on the part it came with. */
  thoughtSignature?: string;
  inlineData?: { mimeType: string; data: string };
  fileData?: { mimeType?: string; fileUri: string };
  functionCall?: { id?: string; name: string; args?: Record<string, unknown> };
  functionResponse?: { id?: string; name: string; response: Record<string, unknown> };
};

export type GeminiContent = { role: 'user' | 'model'; parts: GeminiPart[] };

export type GeminiFunctionDeclaration = {
  name: string;
  description?: string;
  /** Full JSON Schema, instead of `parameters` (OpenAPI's subset): tools' schemas are sent as the client wrote them. */
  parametersJsonSchema?: Record<string, unknown>;
};

export type GeminiFunctionCallingConfig = { mode: 'AUTO' | 'ANY' | 'NONE'; allowedFunctionNames?: string[] };

export type GeminiThinkingConfig = { thinkingBudget?: number; thinkingLevel?: string; includeThoughts?: boolean };

export type GeminiGenerationConfig = {
  temperature?: number;
  topP?: number;
  topK?: number;
  maxOutputTokens?: number;
  stopSequences?: string[];
  seed?: number;
  presencePenalty?: number;
  frequencyPenalty?: number;
  responseMimeType?: string;
  responseJsonSchema?: Record<string, unknown>;
  thinkingConfig?: GeminiThinkingConfig;
  /** Return the chosen tokens' log probabilities in each candidate's `logprobsResult`. */
  responseLogprobs?: boolean;
  /** How many top candidates each decoding step lists (1–20); only with `responseLogprobs`. */
  logprobs?: number;
};

export type GeminiRequestBody = {
  contents: GeminiContent[];
  systemInstruction?: { parts: { text: string }[] };
  tools?: { functionDeclarations: GeminiFunctionDeclaration[] }[];
  toolConfig?: { functionCallingConfig: GeminiFunctionCallingConfig };
  generationConfig?: GeminiGenerationConfig;
};
