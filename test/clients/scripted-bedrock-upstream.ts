/**
 * The matrix's scripted decision (scripted-agent-upstream.ts) for the fake Bedrock Runtime, so that a real
 * client's agent loop runs through the bedrock kind: each Converse request is read as the Chat Completions
 * body the script knows (tool results as `tool` turns, toolSpecs as tools), and the scripted reply is
 * written back as Converse content (text, then toolUse blocks).
 */
import type { FakeBedrock, FakeBedrockReply } from '../helpers/fake-bedrock-server.js';
import type { FakeOpenAiUpstream } from '../helpers/fake-openai-upstream.js';
import type { RecordedRequest } from '../helpers/loopback-server.js';
import { scriptedReply, type ChatRequestBody } from './scripted-agent-upstream.js';

type SentBlock = { text?: string; toolUse?: unknown; toolResult?: unknown };
type SentBody = {
  messages?: { role: string; content?: SentBlock[] }[];
  toolConfig?: { tools?: { toolSpec?: { name: string } }[] };
};

function asChatRequest(request: RecordedRequest): RecordedRequest {
  const sent = (request.body ?? {}) as SentBody;
  const body: ChatRequestBody = {
    messages: (sent.messages ?? []).map((message) => ({
      role: (message.content ?? []).some((block) => block.toolResult) ? 'tool' : message.role,
      content: message.content ?? [],
    })),
    tools: (sent.toolConfig?.tools ?? []).flatMap((tool) => (tool.toolSpec ? [{ function: { name: tool.toolSpec.name } }] : [])),
  };
  return { ...request, body };
}

export function scriptedBedrockReply(request: RecordedRequest): FakeBedrockReply {
  const reply = scriptedReply(asChatRequest(request));
  const text = Array.isArray(reply.content) ? reply.content.join('') : reply.content;
  const toolUses = (reply.toolCalls ?? []).map((call) => ({
    name: call.name,
    input: (typeof call.arguments === 'string' ? JSON.parse(call.arguments) : call.arguments) as Record<string, unknown>,
  }));
  return { type: 'message', ...(text ? { text } : {}), toolUses };
}

/** The matrix's checks read the OpenAI upstream's chat requests: here, the Converse requests, read as chat requests. */
export function bedrockAsChatUpstream(bedrock: FakeBedrock, upstream: FakeOpenAiUpstream): FakeOpenAiUpstream {
  return {
    ...upstream,
    chatRequests: () => bedrock.requests.filter((request) => /\/converse(-stream)?$/.test(request.path)).map(asChatRequest),
  };
}
