import { defineProject } from 'vitest/config'

export default defineProject({
  test: {
    name: 'frontend',
    include: ['src/**/*.test.ts'],
    environment: 'node',
    setupFiles: ['src/lib/i18n/test-setup.ts'],
    // i18next-icu must get intl-messageformat's ES module, as in the browser: from the CommonJS
    // build it cannot construct a formatter and returns messages uninterpolated.
    server: { deps: { inline: ['i18next-icu'] } },
  },
})
