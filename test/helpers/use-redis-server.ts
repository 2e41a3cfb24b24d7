/** A Redis for one suite (test/helpers/redis-server.ts), started before its tests and stopped after them. */
import { afterAll, beforeAll } from 'vitest';
import { RedisServer } from './redis-server.js';

/** Starts a Redis before the suite's tests (hooks run in order: register this before what needs `server`) and stops it after. */
export function useRedisServer(): { readonly server: RedisServer } {
  let server: RedisServer | undefined;
  beforeAll(async () => {
    server = await RedisServer.start();
  });
  afterAll(async () => {
    await server?.stop();
  });
  return {
    get server() {
      if (!server) throw new Error('Redis starts in beforeAll');
      return server;
    },
  };
}
