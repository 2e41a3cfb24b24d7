/**
 * One request of each kind before measuring: a contender that fails is left out with the reason, and
 * one that answers without the expected tool call (the prompted lane before its parser exists) is
 * measured with a note, since its figures then exclude the parsing work.
 */
import { benchRequestBody } from './bench-requests.js';
import type { Contender } from './contenders.js';
import { longReplyChunkCount } from './fake-replies.js';

type ProbeAnswer = { status: number; text: string };

async function post(contender: Contender, path: string, body: Buffer): Promise<ProbeAnswer> {
  const response = await contender.pool.request({
    method: 'POST',
    path,
    headers: { 'content-type': 'application/json', ...contender.headers },
    body,
  });
  return { status: response.statusCode, text: await response.body.text() };
}

function errorMessage(answer: ProbeAnswer): string {
  try {
    const parsed = JSON.parse(answer.text) as { error?: { message?: string } };
    return `HTTP ${answer.status}: ${parsed.error?.message ?? answer.text.slice(0, 200)}`;
  } catch {
    return `HTTP ${answer.status}: ${answer.text.slice(0, 200)}`;
  }
}

/** The name of the first tool call in a `chat.completion`, if any. */
function firstCallName(text: string): string | undefined {
  const body = JSON.parse(text) as { choices?: { message?: { tool_calls?: { function?: { name?: string } }[] } }[] };
  return body.choices?.[0]?.message?.tool_calls?.[0]?.function?.name;
}

/** How many non-empty content deltas a streamed answer carried, and whether it ended with [DONE]. */
export function countStreamedContent(text: string): { contentChunks: number; done: boolean } {
  let contentChunks = 0;
  for (const line of text.split('\n')) {
    if (line.startsWith('data: {') && line.includes('"content":"') && !line.includes('"content":""')) contentChunks++;
  }
  return { contentChunks, done: text.trimEnd().endsWith('data: [DONE]') };
}

export async function probeContender(contender: Contender): Promise<void> {
  try {
    const reply = await post(contender, contender.reply.path, benchRequestBody({ model: contender.reply.model, stream: false }));
    if (reply.status !== 200) {
      contender.unavailable = errorMessage(reply);
      return;
    }
    const name = firstCallName(reply.text);
    if (name !== 'get_weather')
      contender.note = `answered without a parsed tool call (got ${name ?? 'none'}): parser work is not in these figures`;
    const stream = await post(contender, contender.stream.path, benchRequestBody({ model: contender.stream.model, stream: true }));
    if (stream.status !== 200) {
      contender.unavailable = `streaming: ${errorMessage(stream)}`;
      return;
    }
    const { contentChunks, done } = countStreamedContent(stream.text);
    if (!done || contentChunks === 0) {
      contender.unavailable = `streaming: ${contentChunks} content chunks${done ? '' : ', no [DONE]'} for a ${longReplyChunkCount}-chunk reply`;
    } else if (contentChunks !== longReplyChunkCount) {
      const caveat = `streams ${contentChunks} content chunks for the ${longReplyChunkCount} upstream ones`;
      contender.note = contender.note ? `${contender.note}; ${caveat}` : caveat;
    }
  } catch (error) {
    contender.unavailable = (error as Error).message;
  }
}
