/** A scripted turn as the neutral events an upstream would have produced, its text in small chunks. */
import type { ChatRequest } from '../../src/core/chat-request.js';
import { generateCallId, randomHex } from '../../src/core/random-id.js';
import type { StreamEvent } from '../../src/core/stream-event.js';
import type { ScriptedCall, ScriptedTurn } from './scripted-script.js';

/** Writes one call the way the model's family writes it (the prompted lane's syntax, from app.ts). */
export type RenderFamilyCall = (family: string, call: { name: string; arguments: string }) => string;

/** Small, so that a stream shows the parser working across splits of markers and JSON. */
const chunkSize = 7;

function pushChunks(text: string, out: StreamEvent[], toEvent: (piece: string) => StreamEvent): void {
  const characters = Array.from(text);
  for (let start = 0; start < characters.length; start += chunkSize) out.push(toEvent(characters.slice(start, start + chunkSize).join('')));
}

function argumentsText(call: ScriptedCall): string {
  return JSON.stringify(call.arguments ?? {});
}

/** The prompted lane: the model writes its calls as text, after what it says. */
function promptedText(turn: ScriptedTurn, request: ChatRequest, renderCall: RenderFamilyCall): string {
  if (turn.raw !== undefined) return turn.raw;
  const calls = (turn.toolCalls ?? []).map((call) => renderCall(request.model.family, { name: call.name, arguments: argumentsText(call) }));
  return [turn.content ?? '', ...calls].filter((part) => part !== '').join('\n');
}

function estimateTokens(characters: number): number {
  return Math.ceil(characters / 4);
}

function promptCharacters(request: ChatRequest): number {
  let characters = 0;
  for (const message of request.messages) characters += JSON.stringify(message.content).length;
  return characters;
}

export function scriptedEvents(turn: ScriptedTurn, request: ChatRequest, renderCall: RenderFamilyCall): StreamEvent[] {
  const events: StreamEvent[] = [{ type: 'response-start', id: `scripted-${randomHex(24)}`, model: request.model.model, warnings: [] }];
  if (turn.reasoning) pushChunks(turn.reasoning, events, (delta) => ({ type: 'reasoning-delta', delta }));
  const prompted = request.model.toolCalling === 'prompted';
  const text = prompted ? promptedText(turn, request, renderCall) : (turn.raw ?? turn.content ?? '');
  pushChunks(text, events, (delta) => ({ type: 'text-delta', delta }));
  let generated = text.length + (turn.reasoning?.length ?? 0);
  const nativeCalls = prompted || turn.raw !== undefined ? [] : (turn.toolCalls ?? []);
  nativeCalls.forEach((call, index) => {
    const argumentsJson = argumentsText(call);
    generated += argumentsJson.length;
    events.push({ type: 'tool-call-start', index, id: generateCallId(), name: call.name });
    pushChunks(argumentsJson, events, (argumentsDelta) => ({ type: 'tool-call-delta', index, argumentsDelta }));
    events.push({ type: 'tool-call-end', index, arguments: argumentsJson });
  });
  const unified = turn.finish ?? (nativeCalls.length > 0 ? 'tool-calls' : 'stop');
  const inputTokens = estimateTokens(promptCharacters(request));
  const outputTokens = estimateTokens(generated);
  events.push({
    type: 'finish',
    reason: { unified, raw: unified },
    usage: { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens },
  });
  return events;
}
