/** The module's summariser options are inconsistent (e.g. a custom strategy reusing a built-in name). Fails at start-up. */
export class SummariserConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SummariserConfigError';
  }
}
