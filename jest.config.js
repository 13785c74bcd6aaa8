// ESM-only dependencies (p-queue 9 and theirs) are compiled to CommonJS for jest's loader.
const esmOnly = ['p-queue', 'p-timeout', 'eventemitter3'];

const transform = {
  '^.+\\.(t|j)sx?$': [
    '@swc/jest',
    {
      jsc: { parser: { syntax: 'typescript', tsx: true }, target: 'es2022' },
      module: { type: 'commonjs' },
    },
  ],
  '^.+\\.mjs$': ['@swc/jest', { jsc: { target: 'es2022' }, module: { type: 'commonjs' } }],
};

const common = {
  testEnvironment: 'node',
  transform,
  transformIgnorePatterns: [`/node_modules/(?!(${esmOnly.join('|')})/)`],
  moduleFileExtensions: ['ts', 'tsx', 'js', 'mjs', 'cjs', 'json'],
  // Copies of the playground made by tests and benches would collide with it in jest's module map.
  modulePathIgnorePatterns: [
    '<rootDir>/playground/dist',
    '<rootDir>/dist',
    '<rootDir>/tests/.artifacts',
    '<rootDir>/bench/.out',
  ],
};

// The sync engine's tests again on each database server (tests/helpers/test-db.js). A server that is
// missing is installed by the project's globalSetup when we are root with apt-get; otherwise the
// project is left out, with one line saying why.
const MATRIX = [
  'sync-lifecycle',
  'sync-relations',
  'sync-resync',
  'sync-recovery',
  'sync-lease',
  'sync-crash-window',
  'sync-basic',
  'fault-kill',
  'fault-replicas',
  'db-decimal',
  'db-insert-rows',
  'inventory',
  'link',
  'drift',
  'push-history',
  'recovery-tail',
  'inventory-link-walk',
  'secret-rotation',
  'import',
  'import-kill',
];
const canInstall =
  typeof process.getuid === 'function' &&
  process.getuid() === 0 &&
  require('node:child_process').spawnSync('sh', ['-c', 'command -v apt-get']).status === 0;
const serverProjects = [
  ['postgres', () => require('./tests/helpers/postgres').ensurePostgres({ install: false })],
  ['mariadb', () => require('./tests/helpers/mariadb').ensureMariadb({ install: false })],
].flatMap(([kind, find]) => {
  const found = find();
  if (!found.bin && !canInstall) {
    console.warn(`integration-${kind} left out: ${found.reason}`);
    return [];
  }
  return [
    {
      ...common,
      displayName: `integration-${kind}`,
      testMatch: MATRIX.map((name) => `<rootDir>/tests/integration/${name}.test.ts`),
      globals: { __LC_TEST_DB__: kind },
      globalSetup: `<rootDir>/tests/helpers/db-setup-${kind}.js`,
      globalTeardown: `<rootDir>/tests/helpers/db-teardown-${kind}.js`,
      setupFilesAfterEnv: ['<rootDir>/tests/helpers/integration-setup.ts'],
    },
  ];
});

module.exports = {
  // Jest's default on two cores is one worker; most of a Strapi test waits on I/O (boots, the
  // emulator, database servers), so two files at a time halve the suite's time.
  maxWorkers: 2,
  projects: [
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/tests/unit/**/*.test.ts'] },
    { ...common, displayName: 'emulator', testMatch: ['<rootDir>/tests/emulator/**/*.test.ts'] },
    {
      ...common,
      displayName: 'integration',
      testMatch: ['<rootDir>/tests/integration/**/*.test.ts'],
      // Two instances on one database need a database server: integration-postgres / -mariadb.
      testPathIgnorePatterns: ['/node_modules/', '/fault-replicas\\.test\\.ts$'],
      setupFilesAfterEnv: ['<rootDir>/tests/helpers/integration-setup.ts'],
    },
    ...serverProjects,
    // Browser tests: the built admin in headless chromium (docs/admin.md); and `npm run demo` as run.
    {
      ...common,
      displayName: 'e2e',
      testMatch: ['<rootDir>/tests/e2e/**/*.test.ts'],
      testTimeout: 300000,
    },
  ],
};
