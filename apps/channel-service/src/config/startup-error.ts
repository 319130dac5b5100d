/** A reason the service cannot start that names the setting to change: reported as one line, exit 1 (main.ts). */
export class StartupError extends Error {
  override readonly name = 'StartupError';
}
