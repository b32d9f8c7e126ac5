// Lint rules. The one that matters most: src/core is pure. It takes plain values and returns
// plain values, so it may not reach the network, the disk, timers or the clock.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const impure = {
  paths: [
    { name: 'probot', message: 'src/core is pure: adapt probot in src/app.' },
    { name: '@octokit/rest', message: 'src/core is pure: call GitHub from src/github.' },
    { name: '@kubernetes/client-node', message: 'src/core is pure: talk to clusters from src/agent.' },
    { name: 'fs', message: 'src/core never touches the disk: pass file texts in.' },
    { name: 'node:fs', message: 'src/core never touches the disk: pass file texts in.' },
    { name: 'fs/promises', message: 'src/core never touches the disk: pass file texts in.' },
    { name: 'node:fs/promises', message: 'src/core never touches the disk: pass file texts in.' },
    { name: 'node:timers', message: 'src/core has no timers.' },
    { name: 'timers', message: 'src/core has no timers.' },
    { name: 'node:timers/promises', message: 'src/core has no timers.' },
    { name: 'node:http', message: 'src/core has no network.' },
    { name: 'node:https', message: 'src/core has no network.' },
    { name: 'node:net', message: 'src/core has no network.' },
    { name: 'node:child_process', message: 'src/core runs no processes.' },
  ],
  patterns: [
    {
      group: ['@octokit/*', 'probot/*', '@kubernetes/*', 'undici', 'pg', 'better-sqlite3', 'graphile-worker'],
      message: 'src/core is pure.',
    },
    {
      group: ['**/app/**', '**/github/**', '**/store/**', '**/agent/**', '**/cli/**'],
      message: 'src/core may not import the edges.',
    },
  ],
};

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'data/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        Buffer: 'readonly',
        URL: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        fetch: 'readonly',
        AbortController: 'readonly',
        AbortSignal: 'readonly',
        TextEncoder: 'readonly',
        TextDecoder: 'readonly',
        structuredClone: 'readonly',
        performance: 'readonly',
        queueMicrotask: 'readonly',
        setImmediate: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  {
    files: ['src/core/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', impure],
      'no-restricted-globals': [
        'error',
        { name: 'fetch', message: 'src/core has no network.' },
        { name: 'setTimeout', message: 'src/core has no timers.' },
        { name: 'setInterval', message: 'src/core has no timers.' },
        { name: 'setImmediate', message: 'src/core has no timers.' },
        { name: 'process', message: 'src/core reads no environment: pass values in.' },
        { name: 'performance', message: 'src/core reads no clock: pass a clock.' },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.object.name='Date'][callee.property.name='now']",
          message: 'src/core reads no clock: pass `now` in.',
        },
        {
          selector: "NewExpression[callee.name='Date'][arguments.length=0]",
          message: 'src/core reads no clock: pass `now` in.',
        },
        { selector: 'ImportExpression', message: 'src/core does not load modules dynamically.' },
      ],
    },
  },
);
