// ESLint (flat config): typescript-eslint's recommended rules, plus the dependency rules (README: Project layout).
import eslint from '@eslint/js';
import tseslint from 'typescript-eslint';

/** One restricted-imports rule: each pattern is a regular expression over the import's source text. */
function boundary(files, rules, ignores = []) {
  return {
    files,
    ignores,
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
  // The dependency rules (DESIGN.md §2): each folder's allowed imports; only src/app.ts and src/server.ts
  // (the composition root) see everything. A later block for the same files replaces an earlier one's
  // patterns, so each folder is listed once.
  boundary(['src/core/**/*.ts'], [['^\\.\\./', 'src/core imports nothing outside src/core.']]),
  // Families use src/core and shared/ (and may build on another family's exported family value, its *-family.ts).
  boundary(
    ['tool-formats/**/*.ts'],
    [
      ['^(\\.\\./)+(src/(?!core/)|routes/|providers/|bench/|test/)', `tool-formats import ${outsideCore}.`],
      [
        '^\\.\\./(?!shared/|\\.\\./)[^/]+/(?![^/]+-family\\.js$)',
        "a family shares with other families through tool-formats/shared/, not through a sibling family's files.",
      ],
    ],
    ['tool-formats/shared/**', 'tool-formats/index.ts'],
  ),
  boundary(
    ['tool-formats/shared/**/*.ts'],
    [
      ['^(\\.\\./)+(src/(?!core/)|routes/|providers/|bench/|test/)', `tool-formats import ${outsideCore}.`],
      ['^\\.\\./(?!\\.\\./)[^/]+/', 'tool-formats/shared/ never imports a family.'],
    ],
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
        '^(\\.\\./)+(providers|tool-formats|src/(http|config|state|telemetry))/',
        'routes import src/core, src/pipeline and fastify (the interfaces they hold live in src/core), never providers or tool-formats.',
      ],
      [
        '^(\\.\\./)+src/plugins/(?!(error-envelope|request-log)\\.js$)',
        'routes use src/plugins only for the reply helpers of the HTTP edge (error-envelope, request-log); interfaces come from src/core.',
      ],
    ],
  ),
  boundary(
    ['src/pipeline/**/*.ts'],
    [
      ['^fastify$|^@fastify/', 'the pipeline never imports fastify.'],
      [
        '^(\\.\\./)+(routes|providers|tool-formats|plugins|state|telemetry)/',
        'the pipeline sees providers and tool formats only through src/core interfaces.',
      ],
    ],
  ),
  boundary(
    ['src/http/**/*.ts'],
    [
      ['^fastify$|^@fastify/', 'src/http never imports fastify.'],
      [
        '^(\\.\\./)+(routes|providers|tool-formats|pipeline|plugins|state|telemetry)/',
        'src/http imports only src/core (and src/config for its types).',
      ],
    ],
  ),
  // Config knows provider kinds only through src/core/provider-types.ts; their behaviour is handed in by app.ts and server.ts.
  boundary(
    ['src/config/**/*.ts'],
    [
      ['^fastify$|^@fastify/', 'src/config never imports fastify.'],
      [
        '^(\\.\\./)+(routes|tool-formats|providers|bench|pipeline|plugins|state|telemetry|http)/',
        'src/config imports only src/core (provider kinds: src/core/provider-types.ts, their lookups handed in).',
      ],
    ],
  ),
  // The fastify edge: hooks and registries built in app.ts; never an upstream's code or a route.
  boundary(
    ['src/plugins/**/*.ts'],
    [['^(\\.\\./)+(routes|providers|tool-formats|http)/', 'src/plugins never import routes, providers, tool formats or src/http.']],
  ),
  boundary(
    ['src/state/**/*.ts'],
    [
      ['^fastify$|^@fastify/', 'src/state never imports fastify.'],
      [
        '^(\\.\\./)+(routes|providers|tool-formats|pipeline|plugins|telemetry|http)/',
        'src/state imports only src/core (and src/config for its types).',
      ],
    ],
  ),
  boundary(
    ['src/telemetry/**/*.ts'],
    [
      ['^fastify$|^@fastify/', 'src/telemetry never imports fastify.'],
      [
        '^(\\.\\./)+(routes|providers|tool-formats|plugins|state|http)/',
        "src/telemetry imports src/core, src/config types and the pipeline's stage helpers; provider facts are handed in by app.ts.",
      ],
    ],
  ),
);
