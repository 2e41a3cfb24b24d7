/**
 * The fixed bodies the fake upstream answers with, rendered once at start-up: a native tool call, a
 * Hermes tool call written as text (the prompted lane), 500- and 1,000-chunk text replies (the second
 * answers the agent-turn scenario), and an idle stream.
 * Wire format: https://platform.openai.com/docs/api-reference/chat-streaming
 */

/** The first path segment of an upstream URL picks the reply: `/<kind>/v1/chat/completions`. */
export const replyKinds = ['tool-call', 'hermes', 'chunks-500', 'chunks-1000', 'hold'] as const;
export type ReplyKind = (typeof replyKinds)[number];

export const hermesReplyText = '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>';
export const weatherArguments = '{"city": "Paris"}';
export const longReplyChunkCount = 500;
export const agentTurnReplyChunkCount = 1000;

/** Both JSON and SSE forms of one reply; `frames` are whole SSE events, `[DONE]` included. */
export type RenderedReply = { kind: ReplyKind; json: Buffer; frames: Buffer[]; sse: Buffer };

type Delta = Record<string, unknown>;

const usage = { prompt_tokens: 42, completion_tokens: 17, total_tokens: 59 };
const chunkPrefix = '{"id":"chatcmpl-bench","object":"chat.completion.chunk","created":1700000000,"model":"bench-model"';

export function frame(data: string): Buffer {
  return Buffer.from(`data: ${data}\n\n`);
}

export function chunkFrame(delta: Delta, finishReason: string | null = null): Buffer {
  return frame(
    `${chunkPrefix},"choices":[{"index":0,"delta":${JSON.stringify(delta)},"logprobs":null,"finish_reason":${JSON.stringify(finishReason)}}]}`,
  );
}

/** Real servers stream a few tokens per chunk; 16 characters keeps short replies at a handful of chunks. */
export function pieces(text: string, size = 16): string[] {
  const result: string[] = [];
  for (let start = 0; start < text.length; start += size) result.push(text.slice(start, start + size));
  return result;
}

function completionJson(message: Record<string, unknown>, finishReason: string): Buffer {
  return Buffer.from(
    JSON.stringify({
      id: 'chatcmpl-bench',
      object: 'chat.completion',
      created: 1_700_000_000,
      model: 'bench-model',
      choices: [{ index: 0, message: { role: 'assistant', refusal: null, ...message }, logprobs: null, finish_reason: finishReason }],
      usage,
    }),
  );
}

function closingFrames(finishReason: string): Buffer[] {
  return [chunkFrame({}, finishReason), frame(`${chunkPrefix},"choices":[],"usage":${JSON.stringify(usage)}}`), frame('[DONE]')];
}

function textReply(kind: ReplyKind, contentPieces: string[]): RenderedReply {
  const frames = [
    chunkFrame({ role: 'assistant', content: '' }),
    ...contentPieces.map((piece) => chunkFrame({ content: piece })),
    ...closingFrames('stop'),
  ];
  return { kind, json: completionJson({ content: contentPieces.join('') }, 'stop'), frames, sse: Buffer.concat(frames) };
}

function toolCallReply(): RenderedReply {
  const call = { id: 'call_bench_0', type: 'function', function: { name: 'get_weather', arguments: weatherArguments } };
  const frames = [
    chunkFrame({ role: 'assistant', content: null }),
    chunkFrame({ tool_calls: [{ index: 0, id: call.id, type: 'function', function: { name: 'get_weather', arguments: '' } }] }),
    ...pieces(weatherArguments).map((piece) => chunkFrame({ tool_calls: [{ index: 0, function: { arguments: piece } }] })),
    ...closingFrames('tool_calls'),
  ];
  return {
    kind: 'tool-call',
    json: completionJson({ content: null, tool_calls: [call] }, 'tool_calls'),
    frames,
    sse: Buffer.concat(frames),
  };
}

/** One-word chunks (500 by default): a long answer streamed token by token. */
function longTextPieces(count = longReplyChunkCount): string[] {
  const words = ['The', 'forecast', 'for', 'Paris', 'is', 'mild', 'with', 'light', 'rain', 'later.'];
  return Array.from({ length: count }, (_, index) => ` ${words[index % words.length]}`);
}

/** An idle stream: the role chunk and one word, then nothing until the client leaves. */
function holdReply(): RenderedReply {
  const frames = [chunkFrame({ role: 'assistant', content: '' }), chunkFrame({ content: 'Thinking' })];
  return { kind: 'hold', json: completionJson({ content: 'Thinking' }, 'stop'), frames, sse: Buffer.concat(frames) };
}

export function renderReplies(): Map<ReplyKind, RenderedReply> {
  return new Map<ReplyKind, RenderedReply>([
    ['tool-call', toolCallReply()],
    ['hermes', textReply('hermes', pieces(hermesReplyText))],
    ['chunks-500', textReply('chunks-500', longTextPieces())],
    ['chunks-1000', textReply('chunks-1000', longTextPieces(agentTurnReplyChunkCount))],
    ['hold', holdReply()],
  ]);
}
