/**
 * The folder import rules of DESIGN.md §2, checked by `npm run check:imports` (a counted step of
 * `npm test`, decision 0103). Each rule names the folder, what it may not import, and why.
 * Known exceptions that are being moved away live in .dependency-cruiser-known-violations.json
 * with the reason; a new import breaking a rule fails at once.
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'schema-imports-nothing-of-ours',
      comment: 'schema/ is the shared contract: it may import schema/ and zod, nothing else of ours.',
      severity: 'error',
      from: { path: '^schema/' },
      to: { path: '^(src|sync-worker|server|tests|e2e|bench|scripts)/' },
    },
    {
      name: 'schema-npm-is-zod-only',
      comment: 'schema/ runs in the server, the worker and the tab: zod is its one package.',
      severity: 'error',
      from: { path: '^schema/' },
      to: { dependencyTypes: ['npm', 'npm-dev', 'npm-optional', 'npm-peer', 'npm-no-pkg', 'npm-unknown'], pathNot: '(^|/)node_modules/zod/' },
    },
    {
      name: 'sync-worker-no-react-no-src',
      comment: 'sync-worker/ is the engine: it imports schema/ and its own modules, never React or the app.',
      severity: 'error',
      from: { path: '^sync-worker/' },
      to: { path: ['^(src|server|tests|e2e|bench|scripts)/', '(^|/)node_modules/(react|react-dom|@lingui/react)/'] },
    },
    {
      name: 'src-uses-the-worker-client-api-only',
      comment: 'src/ reaches the engine through sync-worker/client.ts only (its one public surface).',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^sync-worker/', pathNot: '^sync-worker/client\\.ts$' },
    },
    {
      name: 'src-not-server',
      comment: 'src/ talks to the server over HTTP, never by importing it.',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^(server|tests|e2e|bench|scripts)/' },
    },
    {
      name: 'server-not-src-or-sync-worker',
      comment: 'server/ imports schema/ only of the shared code: never the app or the engine.',
      severity: 'error',
      from: { path: '^server/' },
      to: { path: '^(src|sync-worker|tests|e2e|bench|scripts)/' },
    },
    {
      name: 'no-unresolvable',
      comment: 'An import that resolves to nothing is a typo or a missing package.',
      severity: 'error',
      from: { path: '^(schema|sync-worker|src|server)/' },
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Type-only imports count: a type the tab needs from the engine comes through client.ts too.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
    exclude: { path: ['\\.test\\.tsx?$', '^node_modules/', '^dist/', '\\.css$'] },
  },
};
