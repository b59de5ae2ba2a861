import { resolve } from 'node:path'
import { defineConfig } from 'electron-vite'
import react from '@vitejs/plugin-react'

export default defineConfig({
  main: {
    build: {
      rollupOptions: {
        // node-llama-cpp loads its native binaries from its own package folder: never bundle it (and keep
        // its binaries out of the asar archive when the app is packaged; see package.json "build").
        external: ['node-llama-cpp'],
        input: {
          engine: resolve(import.meta.dirname, 'src/main/engine.ts'),
          index: resolve(import.meta.dirname, 'src/main/index.ts'),
          web: resolve(import.meta.dirname, 'src/main/web.ts'),
          'table-worker': resolve(import.meta.dirname, 'src/main/table-worker.ts')
        }
      }
    }
  },
  preload: {
    build: {
      rollupOptions: {
        input: {
          index: resolve(import.meta.dirname, 'src/preload/index.ts'),
          executor: resolve(import.meta.dirname, 'src/preload/executor.ts')
        },
        // Sandboxed preloads must be CommonJS.
        output: { format: 'cjs', entryFileNames: '[name].cjs' }
      }
    }
  },
  renderer: {
    root: resolve(import.meta.dirname, 'src/renderer'),
    plugins: [react()],
    worker: { format: 'es' },
    build: {
      rollupOptions: {
        input: {
          index: resolve(import.meta.dirname, 'src/renderer/index.html'),
          executor: resolve(import.meta.dirname, 'src/renderer/executor.html')
        }
      }
    }
  }
})
