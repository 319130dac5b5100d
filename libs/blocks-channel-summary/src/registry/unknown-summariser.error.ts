/** A strategy name that is not registered. The message lists the known names (the API turns it into a 400). */
export class UnknownSummariserError extends Error {
  constructor(
    readonly summariserName: string,
    readonly knownNames: readonly string[],
  ) {
    super(`Unknown summariser '${summariserName}'; known summarisers: ${knownNames.join(', ')}`);
    this.name = 'UnknownSummariserError';
  }
}
