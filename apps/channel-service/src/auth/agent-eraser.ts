import { Principal } from './principal';

/**
 * Redacts every message an agent sent (`DELETE /agents/{name}?erase=true`, DESIGN §10). Declared
 * here, provided by the lifecycle feature (which builds on auth, so auth does not import it).
 */
export abstract class AgentEraser {
  /** Redacts the agent's messages in bounded, audited batches; returns how many were redacted. */
  abstract erase(agent: string, by: Principal): Promise<number>;
}
