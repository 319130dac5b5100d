/** The view of a channel a summariser may use (for grounding, e.g. the LLM preamble). */
export interface ChannelInfo {
  readonly name: string;
  readonly description: string | null;
}
