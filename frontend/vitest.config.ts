import { defineProject } from 'vitest/config'

export default defineProject({
  test: {
    name: 'frontend',
    include: ['src/**/*.test.ts'],
    environment: 'node',
    setupFiles: ['src/lib/i18n/test-setup.ts'],
  },
})
