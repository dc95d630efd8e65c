import { defineProject } from 'vitest/config'

export default defineProject({
  test: {
    name: 'practice',
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    environment: 'node',
    // Tests talk to real databases on a shared 2-core machine; time is not what they check.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    globalSetup: ['../../packages/kit/src/testing/global-setup.ts'],
  },
})
