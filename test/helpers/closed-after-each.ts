/**
 * The fake server and the gateway a test starts, closed after each test: the gateway first (so that it stops
 * asking the server before the server goes), then the server; both are then forgotten, so that a test that
 * starts neither does not close the previous test's twice.
 */
import { afterEach } from 'vitest';
import type { FakeInferenceServer } from './fake-inference-server.js';
import type { StartedGateway } from './start-gateway.js';

export class RunningPair<Server extends { close(): Promise<void> }> {
  server: Server | undefined;
  gateway: StartedGateway | undefined;

  /** Closes what was started (a test that starts several pairs in turn closes each before the next). */
  async close(): Promise<void> {
    await this.gateway?.close();
    await this.server?.close();
    this.gateway = undefined;
    this.server = undefined;
  }
}

/** Registers the `afterEach` in the calling test file; the test sets `server` and `gateway` as it starts them. */
export function closedAfterEach<Server extends { close(): Promise<void> } = FakeInferenceServer>(): RunningPair<Server> {
  const running = new RunningPair<Server>();
  afterEach(() => running.close());
  return running;
}
