import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    exclude: ['test/e2e/**', 'node_modules/**', 'out/**'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Chromium-hosted executors are heavy; two cores do not like many at once.
    fileParallelism: true,
    maxWorkers: 2
  }
})
