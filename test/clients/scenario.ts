/** What every matrix scenario is given and what it reports; and the checks every agent scenario shares. */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { FakeBedrock } from '../helpers/fake-bedrock-server.js';
import type { FakeGeminiUpstream } from '../helpers/fake-gemini-upstream.js';
import type { FakeOpenAiUpstream } from '../helpers/fake-openai-upstream.js';
import type { ProcessResult } from './run-process.js';
import { finalText, resultTurn, type Task } from './scripted-agent-upstream.js';

export type ScenarioContext = {
  gatewayUrl: string;
  upstream: FakeOpenAiUpstream;
  /** The Gemini side of the fake Vertex AI endpoint (the vertex kind's row); Azure OpenAI's fake relays to `upstream`. */
  vertexGemini: FakeGeminiUpstream;
  /** The fake Bedrock Runtime (the bedrock kind's row), answering with the same script. */
  bedrock: FakeBedrock;
  /** The install prefix of the scenario's client group. */
  prefix: string;
  /** A fresh directory: the agent's working directory and HOME. */
  workDir: string;
  task: Task;
  /** WebSocket connections the gateway accepted so far. */
  webSocketConnections(): number;
};

export type Scenario = {
  name: string;
  /** Which install group it needs (client-cache.ts). */
  group: string;
  run(context: ScenarioContext): Promise<void>;
};

export class ScenarioFailure extends Error {}

/** What the broken answer of `breakNextAnswer` says, for the scenarios that expect the client to show it. */
export const brokenStreamMessage = 'upstream lost its GPU';

/** The next upstream answer breaks off after a few chunks with a mid-stream error (retry and failure scenarios). */
export function breakNextAnswer(context: ScenarioContext): void {
  context.upstream.enqueue({
    type: 'chat',
    content: 'partial answer that breaks',
    streamError: { afterChunks: 3, message: brokenStreamMessage },
  });
}

export function check(condition: unknown, message: string): asserts condition {
  if (!condition) throw new ScenarioFailure(message);
}

function tail(text: string): string {
  return text.trim().split('\n').slice(-6).join(' | ').slice(-600);
}

/** Exit code 0, the final text in the output, the file the agent's tool created, and the tool result sent upstream on the next turn. */
export function checkAgentRun(context: ScenarioContext, result: ProcessResult, requestsBefore: number): void {
  const output = `${result.stdout}\n${result.stderr}`;
  if (process.env.DEBUG_MATRIX) console.log(output);
  check(!result.timedOut, `timed out; output: ${tail(output)}`);
  check(result.exitCode === 0, `exit code ${result.exitCode}; output: ${tail(output)}`);
  check(output.includes(finalText(context.task)), `final text missing; output: ${tail(output)}`);
  const file = path.join(context.workDir, context.task.file);
  check(existsSync(file), `${context.task.file} was not created; output: ${tail(output)}`);
  check(readFileSync(file, 'utf8').includes(context.task.marker), `${context.task.file} lacks the marker`);
  check(
    resultTurn(context.upstream.chatRequests().slice(requestsBefore), context.task),
    'no upstream request carried the tool result back',
  );
}
