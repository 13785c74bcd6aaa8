jest.setTimeout(120_000);
// The database of this project (tests/helpers/test-db.ts): sqlite, or a server the project's globalSetup started.
process.env.LC_TEST_DB = (globalThis as { __LC_TEST_DB__?: string }).__LC_TEST_DB__ ?? 'sqlite';
