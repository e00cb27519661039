import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// Note: no consistent-type-imports rule. Nest reads constructor parameter and DTO types from
// decorator metadata, which an `import type` silently erases.

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', '**/coverage/**', 'bench/.work/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'ioredis', message: 'Only packages/platform talks to Redis.' },
            { name: 'bullmq', message: 'Only packages/platform talks to BullMQ.' },
            { name: 'pg', message: 'Only packages/platform talks to PostgreSQL.' },
          ],
        },
      ],
    },
  },
  {
    files: ['packages/platform/**/*.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        URL: 'readonly',
        fetch: 'readonly',
        Buffer: 'readonly',
        performance: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
      },
    },
  },
);
