import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'

const electronOnly = ['src/main/index.ts', 'src/main/ipc.ts', 'src/main/electron/**', 'src/preload/**']

export default tseslint.config(
  { ignores: ['out/**', 'node_modules/**', 'dist/**', 'test-results/**', 'bench-results/**', 'python/**', '.cache/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.node }
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/consistent-type-definitions': ['error', 'type'],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', ignoreRestSiblings: true }],
      'no-restricted-syntax': ['error', { selector: 'ExportDefaultDeclaration', message: 'Use named exports.' }]
    }
  },
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    ...tseslint.configs.disableTypeChecked
  },
  {
    files: ['src/**/*.ts', 'src/**/*.tsx'],
    ignores: electronOnly,
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { paths: [{ name: 'electron', message: 'Only the Electron entry, ipc.ts, src/main/electron and preload import electron.' }] }
      ]
    }
  },
  {
    files: ['src/renderer/**/*.ts', 'src/renderer/**/*.tsx'],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: { globals: { ...globals.browser, ...globals.worker } },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/main/**', '**/preload/**'], message: 'The renderer talks to main only through src/shared/api.ts.' },
            { group: ['node:*', 'fs', 'path', 'child_process', 'electron'], message: 'No Node built-ins in the renderer.' }
          ]
        }
      ]
    }
  },
  {
    files: ['electron.vite.config.ts', 'vitest.config.ts', 'vitest.e2e.config.ts', 'eslint.config.js'],
    rules: { 'no-restricted-syntax': 'off' }
  }
)
