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
    // Pages answer slower on a busy CI machine; what a poll waits for is behaviour, not speed.
    expect: { poll: { timeout: 15_000, interval: 100 } },
    reporters: ['default', 'json'],
    outputFile: { json: 'test-results/browser.json' },
  },
})
