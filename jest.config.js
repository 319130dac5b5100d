/** One jest run covers the libs' unit tests, the app's unit tests and the e2e suites. */
const swc = ['@swc/jest', {
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true },
    target: 'es2022',
    keepClassNames: true,
  },
  module: { type: 'commonjs' },
}];
const moduleNameMapper = {
  '^@qhorus/api(|/.*)$': '<rootDir>/libs/qhorus-api/src$1',
  '^@qhorus/blocks-summarisation(|/.*)$': '<rootDir>/libs/blocks-summarisation/src$1',
  '^@qhorus/blocks-channel-summary(|/.*)$': '<rootDir>/libs/blocks-channel-summary/src$1',
  '^@qhorus/client(|/.*)$': '<rootDir>/libs/qhorus-client/src$1',
  '^@qhorus/langchain(|/.*)$': '<rootDir>/libs/qhorus-langchain/src$1',
  // @fastify/static (dashboard, Swagger UI) requires content-disposition 3, which is ESM only:
  // Node loads it with require(esm), jest cannot. Version 2 (CJS, same create/parse API) is there too.
  '^content-disposition$': '<rootDir>/node_modules/content-disposition/dist/index.js',
};
// dist/packages holds the staged @qhorus/* packages (npm run pack:packages): their package.json
// names would collide with libs/* in jest's module map; tests never load dist/ in process.
const modulePathIgnorePatterns = ['<rootDir>/dist/'];
const common = { transform: { '^.+\\.ts$': swc }, moduleNameMapper, modulePathIgnorePatterns, testEnvironment: 'node', rootDir: __dirname };
/**
 * A worker's heap grows by tens of MB per e2e file (every file boots Nest apps in a module
 * registry of its own) and reached 1.6–1.8 GB by the end of a full run (2026-12-01). Tearing down
 * a heap that size took longer than the 500 ms jest-worker waits after telling a worker to end,
 * so the run ended with "A worker process has failed to exit gracefully" although nothing was
 * left open (every worker reached its `exit` event 1–2 ms after the end message). Recycling a
 * worker past this size keeps both its exit and the run's memory bounded.
 */
const WORKER_IDLE_MEMORY_LIMIT = '768MB';

module.exports = {
  workerIdleMemoryLimit: WORKER_IDLE_MEMORY_LIMIT,
  projects: [
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/libs/**/*.spec.ts', '<rootDir>/apps/**/*.spec.ts'] },
    { ...common, displayName: 'e2e', testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'], setupFilesAfterEnv: ['<rootDir>/test/support/e2e-timeout.setup.ts'] },
  ],
};
