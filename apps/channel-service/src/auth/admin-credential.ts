/** The deployment's admin token, as its SHA-256 digest (resolveAdminTokenHash). */
export class AdminCredential {
  constructor(readonly digest: Buffer) {}

  static fromHash(hexHash: string): AdminCredential {
    return new AdminCredential(Buffer.from(hexHash, 'hex'));
  }
}
