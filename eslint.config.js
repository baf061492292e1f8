// One lint config for the whole monorepo; formatting is Prettier's job.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/node_modules/', '**/dist/', '**/src/generated/', '.data/'] },
  js.configs.recommended,
  ...tseslint.configs.strict,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-non-null-assertion': 'error',
    },
  },
  {
    // CommonJS files (`ocs-mock`'s bin) load with require(): that is what they are for.
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // Layers below the routes: the engine, the domain, the stores and the delivery worker
    // find what they need in lookups/, never in a route handler.
    files: ['packages/server/src/{engine,domain,store,lookups,delivery}/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/routes/*'],
              message: 'Route handlers sit above this layer: move the lookup to src/lookups/.',
            },
          ],
        },
      ],
    },
  },
);
