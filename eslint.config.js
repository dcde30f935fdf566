// Lint and format check (`npm run lint`). Type-aware rules catch what tsc lets through: unused
// code and promises nobody awaits or whose rejection nobody handles. The stylistic rules pin the
// style the code is already written in (single quotes, semicolons, two-space indent, no trailing
// blanks) instead of reformatting it: lines are hand-wrapped and long on purpose.
import tseslint from 'typescript-eslint';
import stylistic from '@stylistic/eslint-plugin';

const unused = [
  'error',
  { args: 'all', argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
];

const style = {
  '@stylistic/quotes': ['error', 'single', { avoidEscape: true, allowTemplateLiterals: 'always' }],
  '@stylistic/semi': ['error', 'always'],
  '@stylistic/indent': ['error', 2, { SwitchCase: 1, ignoredNodes: ['TemplateLiteral *', 'ConditionalExpression *'] }],
  '@stylistic/no-trailing-spaces': 'error',
  '@stylistic/eol-last': ['error', 'always'],
  '@stylistic/no-tabs': 'error',
  '@stylistic/linebreak-style': ['error', 'unix'],
};

export default tseslint.config(
  { ignores: ['server/dist/**', 'plugin/**', 'node_modules/**', 'examples/**', '**/fixtures/**'] },
  {
    files: ['server/src/**/*.ts', 'server/test/**/*.ts', 'scripts/**/*.ts', 'bench/**/*.ts'],
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { '@typescript-eslint': tseslint.plugin, '@stylistic': stylistic },
    rules: {
      '@typescript-eslint/no-unused-vars': unused,
      // node:test's test() and describe() return promises the runner itself awaits.
      '@typescript-eslint/no-floating-promises': [
        'error',
        { allowForKnownSafeCalls: [{ from: 'package', package: 'node:test', name: ['test', 'it', 'describe', 'suite', 'before', 'after', 'beforeEach', 'afterEach'] }] },
      ],
      '@typescript-eslint/no-misused-promises': 'error',
      ...style,
    },
  },
  {
    files: ['scripts/**/*.mjs', 'eslint.config.js'],
    plugins: { '@stylistic': stylistic, '@typescript-eslint': tseslint.plugin },
    rules: { '@typescript-eslint/no-unused-vars': unused, ...style },
    languageOptions: { parser: tseslint.parser },
  },
);
