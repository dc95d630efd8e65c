import { defineProject } from 'vitest/config'

export default defineProject({
  test: {
    name: 'kit',
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    environment: 'node',
    globalSetup: ['./src/testing/global-setup.ts'],
  },
})
