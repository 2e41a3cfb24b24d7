/**
 * The contenders, each an origin with the paths and model names that make it serve the same
 * reply: straight to the fake upstream, through the bare proxy, through the stack's floor, and through the
 * gateway's two lanes.
 */
import { Pool } from 'undici';
import { gatewayModels, nativeModel } from './gateway-config.js';

export type ContenderName =
  | 'direct'
  | 'bare proxy'
  /** The least a gateway on fastify, undici and pino does (fastify-floor.ts): the `--lanes` reference beside the bare proxy. */
  | 'fastify floor'
  /** The least any translating gateway does, on node:http without a framework (translating-floor.ts): what a goal against the bare proxy asks of translation itself. */
  | 'translating floor'
  | 'gateway native'
  | 'gateway prompted'
  | 'gateway native, keyed + limited + metered'
  | 'gateway native, keyed + limited + metered + traced'
  | 'gateway native, keyed + limited + metered + deployments + prices + budget'
  | 'gateway native, deployments + prices + budget'
  /** The lanes rows (`--lanes`), one pair per checkout measured. */
  | `${GatewayLane} @ ${string}`;

export type GatewayLane = 'gateway native' | 'gateway prompted';

/** The process doing a contender's work between client and upstream, for CPU time per request. */
export type MeasuredProcess = { cpuMs(): number };

export type Contender = {
  name: ContenderName;
  process?: MeasuredProcess;
  pool: Pool;
  /** Sent with every request besides the content type (a client key). */
  headers?: Record<string, string>;
  /** Non-streaming: one tool call in the reply. */
  reply: { path: string; model: string };
  /** Streaming: a 500-chunk text reply. */
  stream: { path: string; model: string };
  /** Set by the probe when the contender cannot be measured (e.g. no parser for the prompted lane). */
  unavailable?: string;
  /** Set by the probe for a caveat that does not stop measurement. */
  note?: string;
};

export function createPool(origin: string, connections = 512): Pool {
  // Idle sockets must survive the other contenders' windows (see running-server.ts).
  return new Pool(origin, { connections, pipelining: 1, keepAliveTimeout: 120_000, keepAliveMaxTimeout: 600_000 });
}

/** Straight to the fake upstream, or through the bare proxy: the same paths either way. */
export function upstreamContender(name: 'direct' | 'bare proxy', origin: string, process?: MeasuredProcess): Contender {
  const contender: Contender = {
    name,
    pool: createPool(origin),
    reply: { path: '/tool-call/v1/chat/completions', model: nativeModel },
    stream: { path: '/chunks-500/v1/chat/completions', model: nativeModel },
  };
  if (process) contender.process = process;
  return contender;
}

/** Asked for the native lane's replies on the gateway's own path: the cost rows' gateways and the stack's floor. */
function nativeLaneContender(name: ContenderName, origin: string, process: MeasuredProcess): Contender {
  const path = '/v1/chat/completions';
  return {
    name,
    process,
    pool: createPool(origin),
    reply: { path, model: gatewayModels.native },
    stream: { path, model: gatewayModels.nativeStream },
  };
}

/** A floor (fastify-floor.ts, translating-floor.ts), asked for the native lane's replies. */
export function floorContender(name: 'fastify floor' | 'translating floor', origin: string, process: MeasuredProcess): Contender {
  return nativeLaneContender(name, origin, process);
}

/** `tree`: which checkout's gateway this is, when several are measured side by side (`--lanes --against`). */
export function gatewayContenders(origin: string, process?: MeasuredProcess, tree?: string): Contender[] {
  const path = '/v1/chat/completions';
  const lane = (name: GatewayLane, replyModel: string, streamModel: string): Contender => {
    const contender: Contender = {
      name: tree === undefined ? name : `${name} @ ${tree}`,
      pool: createPool(origin),
      reply: { path, model: replyModel },
      stream: { path, model: streamModel },
    };
    if (process) contender.process = process;
    return contender;
  };
  return [
    lane('gateway native', gatewayModels.native, gatewayModels.nativeStream),
    lane('gateway prompted', gatewayModels.prompted, gatewayModels.promptedStream),
  ];
}

/** The native lane through a gateway whose config has keys with policies and limits (and maybe traces): the cost rows. */
export function keyedContender(name: ContenderName, origin: string, process: MeasuredProcess, clientKey: string): Contender {
  return { ...nativeLaneContender(name, origin, process), headers: { authorization: `Bearer ${clientKey}` } };
}

export async function closeContenders(contenders: Contender[]): Promise<void> {
  await Promise.all(contenders.map((contender) => contender.pool.destroy()));
}
