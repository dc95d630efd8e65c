import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import importPlugin from 'eslint-plugin-import'
import reactHooks from 'eslint-plugin-react-hooks'
import prettier from 'eslint-config-prettier'
import globals from 'globals'
import i18next from 'eslint-plugin-i18next'
import { readdirSync } from 'node:fs'

// Each feature folder may import only from itself (and shared code), never from a sibling feature.
const frontendFeatures = readdirSync(new URL('./frontend/src/features', import.meta.url), {
  withFileTypes: true,
})
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)

// The shape of every service (issue [26]; docs/contributing.md): `<area>/routes.ts` holds
// handlers only and calls its domain; every statement lives in a repository (or db/, or a seed);
// the caller comes from defineHandlers, typed from the contract's x-access, never from a
// service's own "require the caller" or a cast of the request.
const SQL_TEXT = '/\\b(SELECT\\s|INSERT\\s+INTO|UPDATE\\s+\\S+\\s+SET|DELETE\\s+FROM)/'
const sqlHere = 'SQL belongs in the area’s repository.ts (docs/contributing.md)'
const serviceSource = ['services/*/src/**/*.ts', 'gateway/src/**/*.ts']
const noSql = [
  { selector: "TaggedTemplateExpression[tag.name='sql']", message: sqlHere },
  { selector: `Literal[value=${SQL_TEXT}]`, message: sqlHere },
  {
    selector: `:not(TaggedTemplateExpression) > TemplateLiteral > TemplateElement[value.raw=${SQL_TEXT}]`,
    message: sqlHere,
  },
]
const callerHelper = '/^(require(User|Admin|Caller)|caller(Of)?|userOf|signedIn|admin)$/'
const noCallerHelper = [
  {
    selector: `:matches(FunctionDeclaration[id.name=${callerHelper}], VariableDeclarator[id.name=${callerHelper}][init.type=/FunctionExpression$/])`,
    message: 'No service writes its own "require the caller": defineHandlers does, from x-access.',
  },
]
const serviceShape = [
  {
    files: ['services/*/src/**/routes.ts', 'gateway/src/**/routes.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                '**/repository',
                '**/repository.ts',
                '**/db/*',
                'drizzle-orm',
                'drizzle-orm/*',
                'pg',
              ],
              message: 'A routes file calls its domain, never a repository or the database.',
            },
          ],
        },
      ],
    },
  },
  {
    files: serviceSource,
    ignores: [
      'services/*/src/**/repository.ts',
      'services/*/src/db/**',
      'services/*/src/**/migrations/**',
    ],
    rules: {
      'no-restricted-syntax': ['error', ...noSql, ...noCallerHelper],
    },
  },
  {
    files: ['services/*/src/**/routes.ts', 'gateway/src/**/routes.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...noSql,
        ...noCallerHelper,
        {
          selector: "MemberExpression[object.name='request'][property.name='user']",
          message: 'The caller is the handler’s `user` (defineHandlers), typed from x-access.',
        },
        {
          selector:
            "TSAsExpression > MemberExpression[object.name='request'][property.name=/^(params|query|body)$/]",
          message: 'Params, query and body come typed from the contract (defineHandlers).',
        },
      ],
    },
  },
]

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'data/**',
      'packages/contracts/generated/**',
      'frontend/src/lib/api/generated.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.strict,
  {
    languageOptions: { globals: { ...globals.node } },
    plugins: { import: importPlugin },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/ban-ts-comment': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      'import/no-duplicates': 'error',
    },
  },
  {
    files: ['frontend/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    settings: {
      'import/resolver': { node: { extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'] } },
    },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'import/no-cycle': 'error',
      // Imports flow one way: shared (components, lib, config) -> features -> app; no feature imports another.
      'import/no-restricted-paths': [
        'error',
        {
          // Zones are relative to the repo root even when ESLint runs inside frontend/.
          basePath: import.meta.dirname,
          zones: [
            { target: './frontend/src/features', from: './frontend/src/app' },
            {
              target: './frontend/src/components',
              from: ['./frontend/src/features', './frontend/src/app'],
            },
            {
              target: './frontend/src/lib',
              from: ['./frontend/src/features', './frontend/src/app'],
            },
            {
              target: './frontend/src/config',
              from: ['./frontend/src/features', './frontend/src/app'],
            },
            ...frontendFeatures.map((name) => ({
              target: `./frontend/src/features/${name}`,
              from: './frontend/src/features',
              except: [`./${name}`],
            })),
          ],
        },
      ],
    },
  },
  {
    // Every label a person reads comes from a message catalogue (frontend/src/locales): text
    // in JSX, and the props that are read out or shown (the rest of a prop list is code).
    files: ['frontend/src/**/*.tsx'],
    ignores: ['frontend/src/**/*.test.tsx'],
    plugins: { i18next },
    rules: {
      'i18next/no-literal-string': [
        'error',
        {
          mode: 'jsx-only',
          'jsx-attributes': {
            include: [
              '^(aria-label|aria-valuetext|aria-roledescription|alt|title|label|placeholder|helperText|primary|secondary|tooltip|description|heading|message|emptyText|confirmLabel|cancelLabel)$',
            ],
          },
          words: { exclude: ['[0-9!-/:-@[-`{-~\\s·–—…×→←↑↓]+', 'CRV Training'] },
        },
      ],
    },
  },
  ...serviceShape,
  {
    // One import source for RTK Query hooks: a feature's own api.ts (issue [26]).
    files: ['frontend/src/features/**/*.{ts,tsx}', 'frontend/src/app/**/*.{ts,tsx}'],
    ignores: ['frontend/src/features/**/api.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/lib/api/generated', '**/lib/api/generated.ts'],
              allowTypeImports: true,
              message:
                "Take hooks and endpoints from the feature's api.ts (types may come from generated.ts).",
            },
          ],
        },
      ],
    },
  },
  {
    // One import source for the store's hooks: lib/store's, typed from the root reducer
    // (issue [26]). RTK Query's own hooks (lib/api) are built from react-redux's, below the store.
    files: ['frontend/src/**/*.{ts,tsx}'],
    ignores: [
      'frontend/src/lib/store/**',
      'frontend/src/lib/api/base-api.ts',
      'frontend/src/lib/api/selector-in-transition.ts',
    ],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'react-redux',
              importNames: ['useSelector', 'useDispatch', 'useStore'],
              message: 'Use useAppSelector, useAppDispatch or useAppStore from lib/store.',
            },
          ],
        },
      ],
    },
  },
  prettier,
)
