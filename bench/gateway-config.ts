/**
 * The gateway's configuration for the bench: one provider per fake reply, so that the model name
 * alone picks both the lane and what the fake upstream answers (`/<reply-kind>/v1`).
 */
import { writeFileSync } from 'node:fs';
import type { ReplyKind } from './fake-replies.js';

/** A model of the hermes family, so the prompted lane picks the Hermes syntax. */
export const promptedModel = 'qwen2.5-7b-instruct';
export const nativeModel = 'gpt-4o-mini';

export const gatewayModels = {
  native: `native/${nativeModel}`,
  prompted: `prompted/${promptedModel}`,
  nativeStream: `native-stream/${nativeModel}`,
  promptedStream: `prompted-stream/${promptedModel}`,
  idle: `idle/${nativeModel}`,
} as const;

type ProviderSetting = { reply: ReplyKind; toolCalling: 'native' | 'prompted'; maxConnections?: number };

const providers: Record<string, ProviderSetting> = {
  native: { reply: 'tool-call', toolCalling: 'native' },
  prompted: { reply: 'hermes', toolCalling: 'prompted' },
  'native-stream': { reply: 'chunks-500', toolCalling: 'native' },
  'prompted-stream': { reply: 'chunks-500', toolCalling: 'prompted' },
  // 1,000 idle streams hold 1,000 upstream connections: above the default pool of 256.
  idle: { reply: 'hold', toolCalling: 'native', maxConnections: 4096 },
};

export function buildGatewayConfig(upstreamUrl: string, logLevel: string): Record<string, unknown> {
  const entries = Object.entries(providers).map(([name, setting]) => {
    const provider: Record<string, unknown> = { type: 'openai-compatible', baseUrl: `${upstreamUrl}/${setting.reply}/v1`, toolCalling: setting.toolCalling };
    if (setting.maxConnections) provider.maxConnections = setting.maxConnections;
    return [name, provider];
  });
  return { server: { host: '127.0.0.1', apiKeys: [], logLevel }, providers: Object.fromEntries(entries) };
}

export function writeGatewayConfig(path: string, upstreamUrl: string, logLevel: string): string {
  writeFileSync(path, JSON.stringify(buildGatewayConfig(upstreamUrl, logLevel), null, 2));
  return path;
}
