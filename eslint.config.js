import js from '@eslint/js';
import nx from '@nx/eslint-plugin';
import prettier from 'eslint-config-prettier';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'libs/sdk/dist/**',
      'libs/sdk/src/generated/**',
      'node_modules/**',
      '.nx/**',
      '.data/**',
      'coverage/**',
      'bench-results/**',
    ],
  },
  ...nx.configs['flat/base'],
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/consistent-type-imports': [
        'error',
        { fixStyle: 'inline-type-imports', disallowTypeAnnotations: false },
      ],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // Nest injects by the runtime class of a constructor parameter: those imports must stay value imports.
      '@typescript-eslint/no-extraneous-class': 'off',
      'no-console': 'error',
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: false,
          allow: [],
          depConstraints: [
            {
              sourceTag: 'type:app',
              onlyDependOnLibsWithTags: ['type:lib', 'type:contracts', 'type:testing'],
            },
            { sourceTag: 'type:lib', onlyDependOnLibsWithTags: ['type:lib', 'type:contracts'] },
            { sourceTag: 'type:contracts', onlyDependOnLibsWithTags: ['type:contracts'] },
            {
              sourceTag: 'type:testing',
              onlyDependOnLibsWithTags: ['type:lib', 'type:contracts', 'type:testing'],
            },
            {
              sourceTag: 'type:e2e',
              onlyDependOnLibsWithTags: ['type:lib', 'type:contracts', 'type:testing'],
            },
            // Tools run from dist/, where the testing library is not built.
            { sourceTag: 'type:tool', onlyDependOnLibsWithTags: ['type:lib', 'type:contracts'] },
          ],
        },
      ],
    },
  },
  {
    // Tests of a library may use the testing library (real NATS and PostgreSQL); its code may not.
    files: ['libs/**/*.spec.ts'],
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: false,
          allow: [],
          depConstraints: [
            {
              sourceTag: 'type:lib',
              onlyDependOnLibsWithTags: ['type:lib', 'type:contracts', 'type:testing'],
            },
            { sourceTag: 'type:contracts', onlyDependOnLibsWithTags: ['type:contracts'] },
            {
              sourceTag: 'type:testing',
              onlyDependOnLibsWithTags: ['type:lib', 'type:contracts', 'type:testing'],
            },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.spec.ts', 'libs/testing/**/*.ts', 'tools/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  { files: ['tools/**/*.ts', '**/admin-cli/**/*.ts'], rules: { 'no-console': 'off' } },
  { files: ['**/*.js', '**/*.mjs'], ...tseslint.configs.disableTypeChecked },
  {
    // No import cycles, within a project or across them (@cpc/* resolve through tsconfig.base.json's paths). Type-only
    // imports are not followed: they vanish from the emitted code.
    files: ['**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
      'import-x/resolver-next': [
        createNodeResolver({
          extensions: ['.ts', '.js', '.json'],
          extensionAlias: { '.js': ['.ts', '.js'] },
          tsconfig: { configFile: `${import.meta.dirname}/tsconfig.base.json` },
        }),
      ],
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  prettier,
);
