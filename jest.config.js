// ESM-only dependencies (p-queue 9, node-fetch 3 and theirs) are compiled to CommonJS for jest's loader.
const esmOnly = [
  'p-queue', 'p-timeout', 'eventemitter3', 'node-fetch', 'data-uri-to-buffer', 'fetch-blob', 'formdata-polyfill',
];

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
  modulePathIgnorePatterns: ['<rootDir>/playground/dist', '<rootDir>/dist', '<rootDir>/tests/.artifacts', '<rootDir>/bench/.out'],
};

module.exports = {
  projects: [
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/tests/unit/**/*.test.ts'] },
    { ...common, displayName: 'emulator', testMatch: ['<rootDir>/tests/emulator/**/*.test.ts'] },
    {
      ...common,
      displayName: 'integration',
      testMatch: ['<rootDir>/tests/integration/**/*.test.ts'],
      setupFilesAfterEnv: ['<rootDir>/tests/helpers/integration-setup.ts'],
    },
    // Browser tests: the built admin in headless chromium (docs/admin.md).
    { ...common, displayName: 'e2e', testMatch: ['<rootDir>/tests/e2e/**/*.test.ts'], testTimeout: 300000 },
  ],
};
