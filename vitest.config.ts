import { defineConfig } from 'vitest/config'

// One runner for the whole repo: each workspace is a project with its own vitest.config.ts;
// `test/` at the root holds the repo-level checks (contract, generated files, deployment).
export default defineConfig({
  test: {
    projects: [
      'packages/kit',
      'gateway',
      'services/*',
      'frontend',
      {
        test: {
          name: 'repo',
          include: ['test/*.test.ts'],
          environment: 'node',
          globalSetup: ['packages/kit/src/testing/global-setup.ts'],
        },
      },
    ],
  },
})
