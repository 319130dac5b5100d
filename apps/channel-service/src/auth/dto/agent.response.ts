/** An agent as `GET /agents` lists it (never its token). */
export class AgentResponse {
  name: string;
  createdAt: Date;
}

/** The answer of `POST /agents`: the token is shown this once and stored hashed. */
export class RegisteredAgentResponse extends AgentResponse {
  /** The agent's bearer token (`qh_…`). */
  token: string;
}
