import { defineConfig } from 'vitest/config'

// Faults under load (`npm run test:faults`, run by CI after `npm test`): whole stacks on
// PostgreSQL and Redis servers of their own, alone on the machine so that the load they make
// and measure is theirs.
export default defineConfig({
  test: {
    name: 'faults',
    include: ['test/faults.test.ts'],
    globalSetup: ['packages/kit/src/testing/global-setup.ts'],
    testTimeout: 240_000,
    hookTimeout: 240_000,
    fileParallelism: false,
    reporters: ['default', 'json'],
    outputFile: { json: 'test-results/faults.json' },
  },
})
