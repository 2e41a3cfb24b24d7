/**
 * The matrix's scripted decision (scripted-agent-upstream.ts) for a Gemini upstream, so that a real
 * client's agent loop runs through the vertex kind: each generateContent request is read as the Chat
 * Completions body the script knows (function responses as `tool` turns, declarations as tools), and the
 * scripted reply is written back as Gemini parts, a function call whole in its own chunk.
 */
import type { FakeGeminiPart, FakeGeminiReply, FakeGeminiUpstream } from '../helpers/fake-gemini-upstream.js';
import type { FakeOpenAiUpstream } from '../helpers/fake-openai-upstream.js';
import type { RecordedRequest } from '../helpers/loopback-server.js';
import { scriptedReply, type ChatRequestBody } from './scripted-agent-upstream.js';

type SentPart = { text?: string; functionCall?: unknown; functionResponse?: unknown };
type SentBody = {
  contents?: { role: string; parts: SentPart[] }[];
  tools?: { functionDeclarations?: { name: string }[] }[];
};

export function asChatRequest(request: RecordedRequest): RecordedRequest {
  const sent = (request.body ?? {}) as SentBody;
  const body: ChatRequestBody = {
    messages: (sent.contents ?? []).map((content) => ({
      role: content.parts.some((part) => part.functionResponse) ? 'tool' : content.role === 'model' ? 'assistant' : 'user',
      content: content.parts,
    })),
    tools: (sent.tools ?? [])
      .flatMap((tool) => tool.functionDeclarations ?? [])
      .map((declaration) => ({ function: { name: declaration.name } })),
  };
  return { ...request, body };
}

export function scriptedGeminiReply(request: RecordedRequest): FakeGeminiReply {
  const reply = scriptedReply(asChatRequest(request));
  const text = Array.isArray(reply.content) ? reply.content.join('') : reply.content;
  const chunks: FakeGeminiPart[][] = text ? [[{ text }]] : [];
  for (const call of reply.toolCalls ?? []) {
    const args = typeof call.arguments === 'string' ? (JSON.parse(call.arguments) as Record<string, unknown>) : call.arguments;
    chunks.push([{ functionCall: { name: call.name, args } }]);
  }
  return { type: 'generate', chunks };
}

/** The matrix's checks read the OpenAI upstream's chat requests: here, the Gemini upstream's, read as chat requests. */
export function geminiAsChatUpstream(gemini: FakeGeminiUpstream, upstream: FakeOpenAiUpstream): FakeOpenAiUpstream {
  return { ...upstream, chatRequests: () => gemini.generateRequests().map(asChatRequest) };
}
