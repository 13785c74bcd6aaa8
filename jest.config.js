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

// The integration files run again on each database server (tests/helpers/test-db.ts): those whose
// behaviour differs per database, not every file. What differs is little and known: the SQL that
// server/src/sync/shared/dialect.ts writes per dialect (multi-row inserts and upserts, VALUES() vs
// excluded., indexes), the few queries written by hand (push-history pruning, the inventory's
// cross-table reads), what each server stores and answers (decimal scale, collations, error
// texts, dates), and what only a server has: two instances on one database, transactions a killed
// process leaves behind. Everything else goes through Strapi's document service and knex's
// builders, which speak each dialect, to the same statements the files kept here run.
// A server app starts from a template database (tests/helpers/db-template.ts), as on SQLite.
//
// Kept, and what each proves only on a server (on both servers unless said):
const MATRIX = {
  // insertRows itself: every statement shape dialect.ts writes, on each dialect.
  'db-insert-rows': 'both',
  // decimalScale (information_schema): numeric(10,2) on PostgreSQL and MariaDB, the boot warning.
  'db-decimal': 'both',
  // The common path (outbox upsert with proposed(), state and refs writes, media, events, lists).
  'sync-basic': 'both',
  // Two instances on one database: claims and leases under real concurrency (SQLite has no second instance).
  'fault-replicas': 'both',
  // kill -9 mid-resync of 2,000 entries: what the server rolls back of a dead connection, the dead
  // process's leases, the resync's pages and outbox upserts at scale (this also covers sync-resync).
  'fault-kill': 'both',
  // kill -9 with changes in memory: the catch-up reads entries by a time window (dates per driver).
  'sync-crash-window': 'both',
  // The history's pruning (ROW_NUMBER() OVER, written by hand) and each server's error text.
  'push-history': 'both',
  // The inventory table: upserts of pages, deletes of gone objects, the walk's stored progress.
  inventory: 'both',
  // Lookups by name key: MariaDB compares under utf8mb4_unicode_ci (case and accents), not byte by byte.
  link: 'both',
  // drift/check.ts and repair.ts: reads and deletes across the inventory and the states.
  drift: 'both',
  // The settings row's compare-and-set re-seal: issue 33 asks for PostgreSQL beside SQLite. The
  // statement is knex's builder (an UPDATE ... WHERE id AND value), the secret is opened in memory:
  // MariaDB would run the same statement again, for 30 s.
  'secret-rotation': 'postgres',
  // The import's table, its claims and the states it links, written on each server; kill -9 mid-import
  // leaves a server transaction behind that SQLite does not have.
  import: 'both',
  'import-kill': 'both',
};
// Left out, and where their statements run on each server all the same:
//  - sync-lifecycle (drafts, locales, unpublish/delete, no draft & publish): document-service
//    semantics; the plugin writes the same outbox and state rows as in sync-basic.
//  - sync-relations (dependency order, refs): the refs writes and the "takes its events along"
//    lookup (dependantsOf's join, when a pinpoint gets its remote id) run in sync-basic.
//  - sync-resync: its resync of 500+ entries and outbox upserts run at 2,000 in fault-kill; dry
//    run, concurrency of resyncs and idle() are in memory.
//  - sync-lease: a push outliving its lease is guarded in the worker's memory; the lease
//    statements run under two instances in fault-replicas.
//  - inventory-link-walk: the walk's table writes are inventory's; dropping another account's
//    objects is an unconditional delete of two tables.
//  - sync-recovery (its server part: restarts with pending work, refs indexed at boot): a restart
//    with queued, leased and resync rows is fault-kill's (after a kill -9, harder); a row backing
//    off is retryLater's UPDATE by id and owner, the statement of the worker's release and renewal
//    (fault-kill, fault-replicas), read back by the claim's dueAt as every push is; the refs
//    backfill is a select by id, then writeRefs' delete and insertRows, which every push with refs
//    runs (sync-basic); ensureIndex's information_schema path runs at every boot of the files kept
//    here (on MariaDB, whose apps start from an empty database, it creates the indexes).
//  - recovery-tail: the tail read is pages of the emulator and memory; its statements are the
//    inventory's (inventory), ownedNotHeld is the NOT EXISTS of the states beside the inventory
//    that unownedCount runs (inventory asserts it), and adoption by name key is link's lookup.
const filesOn = (kind) =>
  Object.entries(MATRIX)
    .filter(([, on]) => on === 'both' || on === kind)
    .map(([name]) => `<rootDir>/tests/integration/${name}.test.ts`);
// The TypeScript test helpers, under the plain Node that reads this file.
const helper = require('./tests/helpers/node');
const canInstall =
  typeof process.getuid === 'function' &&
  process.getuid() === 0 &&
  require('node:child_process').spawnSync('sh', ['-c', 'command -v apt-get']).status === 0;
const serverProjects = [
  ['postgres', () => helper('postgres').ensurePostgres({ install: false })],
  ['mariadb', () => helper('mariadb').ensureMariadb({ install: false })],
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
      testMatch: filesOn(kind),
      globals: { __LC_TEST_DB__: kind },
      testEnvironment: '<rootDir>/tests/helpers/strapi-environment.ts',
      globalSetup: `<rootDir>/tests/helpers/db-setup-${kind}.ts`,
      globalTeardown: `<rootDir>/tests/helpers/db-teardown-${kind}.ts`,
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
      testEnvironment: '<rootDir>/tests/helpers/strapi-environment.ts',
      setupFilesAfterEnv: ['<rootDir>/tests/helpers/integration-setup.ts'],
    },
    ...serverProjects,
    // Browser tests: the built admin in headless chromium (docs/admin.md); and `npm run demo` as run.
    // Their in-process apps too take Strapi from the jest worker's own require (strapi-environment).
    {
      ...common,
      displayName: 'e2e',
      testMatch: ['<rootDir>/tests/e2e/**/*.test.ts'],
      testEnvironment: '<rootDir>/tests/helpers/strapi-environment.ts',
      testTimeout: 300000,
    },
  ],
};
