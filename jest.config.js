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
const common = { transform: { '^.+\\.ts$': swc }, moduleNameMapper, testEnvironment: 'node', rootDir: __dirname };
module.exports = {
  projects: [
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/libs/**/*.spec.ts', '<rootDir>/apps/**/*.spec.ts'] },
    { ...common, displayName: 'e2e', testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'], setupFilesAfterEnv: ['<rootDir>/test/support/e2e-timeout.setup.ts'] },
  ],
};
