/**
 * Issue 26's matrix: every family × every server kind (started with its documented defaults, the gateway
 * configured with only `type` and `baseUrl`) × Chat Completions, Responses and Messages × whole and
 * streamed. Every cell must return the call structured: name, arguments, the API's tool-call finish, and no
 * residue of the call or its markers in the visible text. A server that loses a family's calls before the
 * gateway sees them (gpt-oss on a vLLM without its tool parser) must say so in the reply, with the fix.
 */
import type OpenAI from 'openai';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { weatherCall } from '../helpers/scripted-generation.js';
import { scriptedModels } from '../helpers/scripted-models.js';
import { startGateway, waitForServerDetection, type StartedGateway } from '../helpers/start-gateway.js';
import { serverKinds, type StartedServers } from './server-kinds.js';
import { askForWeather, toolCallFinish, type Api } from './tool-call-outcomes.js';

const apis: readonly Api[] = ['chat-completions', 'responses', 'messages'];

/**
 * What the call or its markers leave behind when they reach the text instead of a structured call: the
 * tool's name, its arguments, and every family's markers (or what is left of them once stripped).
 */
const residues = [
  weatherCall.name,
  '"city"',
  '<|',
  '|>',
  '<｜',
  '[TOOL_CALLS]',
  '[ARGS]',
  '<tool_call>',
  '</tool_call>',
  '<think>',
  '</think>',
  'functions.',
  'commentary',
];

describe.each(serverKinds)('$label', (kind) => {
  let servers: StartedServers;
  let gateway: StartedGateway;
  let client: OpenAI;

  beforeAll(async () => {
    servers = await kind.start(scriptedModels);
    // As a user runs it: the gateway finds out what answers before the first request.
    gateway = await startGateway({ providers: servers.providers }, { detectServers: true });
    await waitForServerDetection(gateway);
    client = gateway.client();
  });

  afterAll(async () => {
    await gateway?.close();
    await servers?.close();
  });

  // The cells are independent requests to the same gateway, so they run concurrently.
  describe.concurrent.each(scriptedModels.map((model) => ({ model, family: model.family })))('$family', ({ model }) => {
    if (kind.losesCallsOf?.includes(model.family)) {
      for (const stream of [false, true]) {
        it(`chat-completions ${stream ? 'streamed' : 'whole'}: the lost call is named, with the fix`, async ({ expect }) => {
          const outcome = await askForWeather('chat-completions', { baseUrl: gateway.baseUrl, client }, servers.modelOf(model), stream);
          expect(outcome.calls).toEqual([]);
          expect(outcome.warnings).toContain('special-tokens-stripped');
        });
      }
      return;
    }
    for (const api of apis) {
      for (const stream of [false, true]) {
        it(`${api} ${stream ? 'streamed' : 'whole'}`, async ({ expect }) => {
          const outcome = await askForWeather(api, { baseUrl: gateway.baseUrl, client }, servers.modelOf(model), stream);
          expect(outcome.calls, `text: ${JSON.stringify(outcome.text)}`).toEqual([
            { name: weatherCall.name, arguments: weatherCall.arguments },
          ]);
          expect(outcome.finish).toBe(toolCallFinish[api]);
          for (const residue of residues) expect(outcome.text, `residue ${residue}`).not.toContain(residue);
        });
      }
    }
  });
});
