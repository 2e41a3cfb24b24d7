// ESLint (flat config): typescript-eslint's recommended rules, plus the dependency rules (README: Project layout).
import eslint from '@eslint/js';
import tseslint from 'typescript-eslint';

/** One restricted-imports rule: each pattern is a regular expression over the import's source text. */
function boundary(files, rules) {
  return {
    files,
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', { patterns: rules.map(([regex, message]) => ({ regex, message })) }],
    },
  };
}

const outsideCore = 'only src/core and its own shared/';

export default tseslint.config(
  { ignores: ['node_modules/**', 'coverage/**', 'test/fixtures/**'] },
  eslint.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: 'module' },
    rules: {
      // `_unused` names mark what a destructuring leaves out on purpose (tsc's noUnused* check the rest).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
      // A comment between stacked case labels says why they share a branch.
      'no-fallthrough': ['error', { allowEmptyCase: true }],
    },
  },
  // Tests read JSON replies loosely, as a client would.
  { files: ['test/**/*.ts'], rules: { '@typescript-eslint/no-explicit-any': 'off' } },
  // The inspector page runs in the browser.
  {
    files: ['routes/inspector/page/**/*.js'],
    languageOptions: {
      globals: {
        document: 'readonly',
        fetch: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        Option: 'readonly',
        sessionStorage: 'readonly',
      },
    },
  },
  // No module-level mutable state (README: House style): mechanisms are built in src/app.ts and passed in.
  // A module-level Map or Set is a constant table only when typed ReadonlyMap / ReadonlySet (tsc then refuses writes).
  {
    files: ['src/**/*.ts', 'routes/**/*.ts', 'providers/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...['Program > VariableDeclaration', 'Program > ExportNamedDeclaration > VariableDeclaration'].flatMap((declaration) => [
          {
            selector: `${declaration}[kind='let']`,
            message: 'No module-level let: keep the state in an object built in src/app.ts and passed in.',
          },
          {
            selector: `${declaration} > VariableDeclarator:not([id.typeAnnotation.typeAnnotation.typeName.name=/^Readonly(Map|Set)$/]) > NewExpression.init[callee.name=/^(Map|Set|WeakMap|WeakSet|Ajv)$/]`,
            message:
              'No module-level cache or registry: build it in src/app.ts and pass it in (a constant table is typed ReadonlyMap / ReadonlySet).',
          },
        ]),
      ],
    },
  },
  // The dependency rules (README: Project layout): only src/app.ts sees everything.
  boundary(['src/core/**/*.ts'], [['^\\.\\./', 'src/core imports nothing outside src/core.']]),
  boundary(
    ['tool-formats/**/*.ts'],
    [['^(\\.\\./)+(src/(?!core/)|routes/|providers/|bench/|test/)', `tool-formats import ${outsideCore}.`]],
  ),
  boundary(
    ['providers/**/*.ts'],
    [
      ['^fastify$|^@fastify/', 'providers never import fastify.'],
      [
        '^(\\.\\./)+(routes|tool-formats|src/(pipeline|plugins|state|telemetry))/',
        'providers import src/core and src/http (and the types of their config), never routes, tool-formats or the pipeline.',
      ],
    ],
  ),
  boundary(
    ['routes/**/*.ts'],
    [
      [
        '^(\\.\\./)+(providers|tool-formats|src/(http|config))/',
        'routes import src/core, src/pipeline and fastify, never providers or tool-formats.',
      ],
    ],
  ),
  boundary(
    ['src/pipeline/**/*.ts'],
    [
      ['^fastify$|^@fastify/', 'the pipeline never imports fastify.'],
      [
        '^(\\.\\./)+(routes|providers|tool-formats|plugins)/',
        'the pipeline sees providers and tool formats only through src/core interfaces.',
      ],
    ],
  ),
  boundary(
    ['src/http/**/*.ts'],
    [
      ['^fastify$|^@fastify/', 'src/http never imports fastify.'],
      ['^(\\.\\./)+(routes|providers|tool-formats|pipeline|plugins)/', 'src/http imports only src/core (and src/config for its types).'],
    ],
  ),
  // Config reads the provider kinds (schema enum, kind-only settings, discovery) from their one registry, nothing else of providers/.
  boundary(
    ['src/config/**/*.ts'],
    [
      ['^fastify$|^@fastify/', 'src/config never imports fastify.'],
      ['^(\\.\\./)+(routes|tool-formats|pipeline|plugins)/', 'src/config imports only src/core, src/http and the provider registry.'],
      [
        '^(\\.\\./)+providers/(?!index\\.js$|provider-kind\\.js$)',
        'src/config sees provider kinds only through their registry (providers/index.ts).',
      ],
    ],
  ),
);
