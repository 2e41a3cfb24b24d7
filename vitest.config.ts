/** Test runner settings: node environment, the test/ tree, generous timeouts for loopback servers. */
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    environment: 'node',
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: 'forks',
    // `npm run test:coverage`: V8's own counters, over the code a request runs (not the tests, benches or fixtures).
    coverage: {
      provider: 'v8',
      include: ['src/**/*.ts', 'routes/**/*.ts', 'providers/**/*.ts', 'tool-formats/**/*.ts'],
      // The globs match below any folder: test/routes and test/providers are not the gateway's code.
      exclude: ['test/**'],
      reporter: ['text-summary', 'json-summary'],
      reportsDirectory: 'coverage',
    },
  },
});
