/**
 * The agent-turn scenario's parts: a Claude Code-sized request (24 tools, 15 KB system prompt, a history
 * of tool calls and results, about 150 KB) that the gateway answers in both lanes with the whole
 * 1,000-chunk reply, and the section that reports it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentTurnRequestBody } from '../../bench/agent-turn-request.js';
import { renderAgentTurnSection } from '../../bench/agent-turn-scenario.js';
import { agentTurnReplyChunkCount } from '../../bench/fake-replies.js';
import { startFakeUpstream } from '../../bench/fake-upstream.js';
import { gatewayModels, writeGatewayConfig } from '../../bench/gateway-config.js';
import type { RunningServer } from '../../bench/running-server.js';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config/load-config.js';

let upstream: RunningServer;
let gateway: FastifyInstance;
const directory = mkdtempSync(path.join(os.tmpdir(), 'interlingua-agent-turn-test-'));

beforeAll(async () => {
  upstream = await startFakeUpstream();
  const { config } = await loadConfig({
    path: writeGatewayConfig(path.join(directory, 'gateway.json'), upstream.url, 'silent'),
    environment: {},
  });
  gateway = await buildApp(config, { logger: pino({ level: 'silent' }), shutdownGraceMs: 100 });
});

afterAll(async () => {
  await gateway.close();
  await upstream.close();
  rmSync(directory, { recursive: true, force: true });
});

describe('agent-turn scenario', () => {
  it('sends a request the size of a Claude Code turn', () => {
    const body = JSON.parse(agentTurnRequestBody('m').toString('utf8')) as {
      tools: unknown[];
      messages: { role: string; content: string; tool_calls?: unknown[] }[];
    };
    const bytes = agentTurnRequestBody('m').length;
    expect(bytes).toBeGreaterThan(140_000);
    expect(bytes).toBeLessThan(160_000);
    expect(body.tools).toHaveLength(24);
    expect(body.messages[0]).toMatchObject({ role: 'system' });
    expect(body.messages[0]!.content).toHaveLength(15_000);
    expect(body.messages.filter((message) => message.tool_calls).length).toBeGreaterThanOrEqual(20);
    expect(body.messages.filter((message) => message.role === 'tool').length).toBeGreaterThanOrEqual(20);
  });

  it.each([gatewayModels.nativeAgentTurn, gatewayModels.promptedAgentTurn])(
    'is answered by the gateway with the whole 1,000-chunk reply: %s',
    async (model) => {
      for (let turn = 0; turn < 2; turn++) {
        const response = await gateway.inject({
          method: 'POST',
          url: '/v1/chat/completions',
          headers: { 'content-type': 'application/json' },
          payload: agentTurnRequestBody(model),
        });
        expect(response.statusCode).toBe(200);
        const contents = response.body
          .split('\n\n')
          .filter((frame) => frame.startsWith('data: {'))
          .map((frame) => (JSON.parse(frame.slice(6)) as { choices: { delta: { content?: string } }[] }).choices[0]?.delta.content ?? '')
          .join('');
        expect(contents.trim().split(' ')).toHaveLength(agentTurnReplyChunkCount);
        expect(response.body.endsWith('data: [DONE]\n\n')).toBe(true);
      }
    },
  );

  it('reports CPU per request over the bare proxy', () => {
    const section = renderAgentTurnSection([
      { contender: 'bare proxy', requestBytes: 150_000, requests: 10, errors: 0, cpuUsPerRequest: 1000, overBareProxy: 1 },
      { contender: 'gateway native', requestBytes: 150_000, requests: 10, errors: 0, cpuUsPerRequest: 2500, overBareProxy: 2.5 },
    ]);
    const row = section.split('\n').find((line) => line.startsWith('| gateway native'));
    expect(row?.split('|').map((cell) => cell.trim())).toEqual(['', 'gateway native', '146', '10', '2,500', '2.50 ×', '0', '']);
  });
});
