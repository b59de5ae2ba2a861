import { defineConfig } from 'vitest/config'

/** End-to-end tests: browser mode in Debian's Chromium. Needs `npm run build` first. */
export default defineConfig({
  test: {
    include: ['test/e2e/**/*.e2e.test.ts'],
    environment: 'node',
    testTimeout: 180_000,
    hookTimeout: 180_000,
    fileParallelism: false
  }
})
