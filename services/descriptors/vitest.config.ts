import { defineProject } from 'vitest/config'

export default defineProject({
  test: {
    name: 'descriptors',
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    environment: 'node',
    globalSetup: ['../../packages/kit/src/testing/global-setup.ts'],
  },
})
