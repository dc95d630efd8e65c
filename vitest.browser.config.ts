import { defineConfig } from 'vitest/config'

// Browser journeys: the whole app started as `npm start` would, driven by Chromium.
export default defineConfig({
  test: {
    name: 'browser',
    include: ['test/browser/**/*.test.ts'],
    globalSetup: ['test/browser/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    fileParallelism: false,
    reporters: ['default', 'json'],
    outputFile: { json: 'test-results/browser.json' },
  },
})
