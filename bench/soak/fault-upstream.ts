/**
 * The soak's fake OpenAI-compatible upstream: `POST /v1/chat/completions` acts out the scenario of the
 * request number in the user message (soak-scenarios.ts): a whole paced stream, or one of the faults.
 * Wire format: https://platform.openai.com/docs/api-reference/chat-streaming
 */
import http from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { chunkFrame, frame, pieces } from '../fake-replies.js';
import { listenOnLoopback, type RunningServer } from '../running-server.js';
import { indexFromMarker, scenarioFor, type Scenario } from './soak-scenarios.js';

/** Every frame of the scenario's stream, as the upstream would send it whole (before any fault). */
export function streamFrames(scenario: Scenario): Buffer[] {
  const frames = [chunkFrame({ role: 'assistant', content: '' }), ...scenario.contentPieces.map((piece) => chunkFrame({ content: piece }))];
  const call = scenario.toolCall;
  if (call) {
    frames.push(chunkFrame({ tool_calls: [{ index: 0, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] }));
    for (const piece of pieces(call.arguments, 8)) frames.push(chunkFrame({ tool_calls: [{ index: 0, function: { arguments: piece } }] }));
  }
  frames.push(chunkFrame({}, call ? 'tool_calls' : 'stop'), frame('[DONE]'));
  if (scenario.kind === 'garbage') frames.splice(scenario.framesBeforeFault, 0, Buffer.from('data: {"choices":[{"delta":{"content":\n\n'));
  return frames;
}

function userText(body: string): string {
  try {
    const parsed = JSON.parse(body) as { messages?: { content?: unknown }[] };
    return (parsed.messages ?? []).map((message) => (typeof message.content === 'string' ? message.content : '')).join('\n');
  } catch {
    return '';
  }
}

async function writePaced(response: http.ServerResponse, frames: Buffer[], delayMs: number): Promise<boolean> {
  for (const data of frames) {
    if (response.destroyed) return false;
    if (!response.write(data)) await new Promise((resolve) => response.once('drain', resolve).once('close', resolve));
    await sleep(delayMs);
  }
  return !response.destroyed;
}

async function actOut(scenario: Scenario, request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
  switch (scenario.kind) {
    case 'reset-before-headers':
      request.socket.destroy();
      return;
    case 'http-500':
      response
        .writeHead(500, { 'content-type': 'application/json' })
        .end('{"error":{"message":"soak: injected upstream failure","type":"server_error","param":null,"code":null}}');
      return;
    case 'healthy':
    case 'garbage':
    case 'reset-after-headers':
    case 'stall':
      break;
  }
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const frames = streamFrames(scenario);
  if (scenario.kind === 'reset-after-headers' || scenario.kind === 'stall') {
    const sent = await writePaced(response, frames.slice(0, scenario.framesBeforeFault), scenario.frameDelayMs);
    // A stall keeps the response open until the gateway's body timeout gives up on it.
    if (sent && scenario.kind === 'reset-after-headers') request.socket.destroy();
    return;
  }
  if (await writePaced(response, frames, scenario.frameDelayMs)) response.end();
}

export function startFaultUpstream(seed: number, port = 0): Promise<RunningServer> {
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const index =
        request.method === 'POST' && request.url === '/v1/chat/completions'
          ? indexFromMarker(userText(Buffer.concat(chunks).toString('utf8')))
          : undefined;
      if (index === undefined) {
        response
          .writeHead(404, { 'content-type': 'application/json' })
          .end('{"error":{"message":"unknown soak route","type":"not_found"}}');
        return;
      }
      void actOut(scenarioFor(seed, index), request, response);
    });
  });
  return listenOnLoopback(server, port);
}
