import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

// Note: no consistent-type-imports rule. Nest reads constructor parameter and DTO types from
// decorator metadata, which an `import type` silently erases.

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', '**/coverage/**', 'bench/.work/**', 'apps/gateway/src/actions/gen/**'] },
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
            { name: 'better-sqlite3', message: 'Only packages/platform talks to SQLite; dialect differences go through Database.sql.' },
          ],
        },
      ],
    },
  },
  {
    // Platform is the one place for these clients; tests may read a database to count side effects.
    files: ['packages/platform/**/*.ts', '**/test/**/*.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    languageOptions: { globals: globals.node },
  },
);
