import { defineProject } from 'vitest/config'

export default defineProject({
  test: {
    name: 'frontend',
    include: ['src/**/*.test.ts'],
    environment: 'node',
    setupFiles: ['src/lib/i18n/test-setup.ts'],
    // i18next-icu (the plugin icu-format.test.ts compares ours with) must get intl-messageformat's
    // ES module: from the CommonJS build it cannot construct a formatter and returns messages
    // uninterpolated.
    server: { deps: { inline: ['i18next-icu'] } },
  },
})
