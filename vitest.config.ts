import { defineConfig } from 'vitest/config'

// One runner for the whole repo: each workspace is a project with its own vitest.config.ts;
// `test/` at the root holds the repo-level checks (contract, generated files, deployment).
export default defineConfig({
  test: {
    // The JSON feeds docs/quality.md (scripts/quality-report.ts).
    reporters: ['default', 'json'],
    outputFile: { json: 'test-results/unit.json' },
    projects: [
      'packages/kit',
      'gateway',
      'services/*',
      'frontend',
      {
        test: {
          name: 'repo',
          include: ['test/*.test.ts'],
          // Faults run alone: `npm run test:faults` (vitest.faults.config.ts).
          exclude: ['test/faults.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
          globalSetup: ['packages/kit/src/testing/global-setup.ts'],
        },
      },
    ],
  },
})
