/** An agent was revoked or its token rotated (heard on this instance): what it holds open must end. */
export class AgentCredentialsChangedEvent {
  static readonly NAME = 'agent.credentials-changed';
  constructor(readonly agentName: string) {}
}
