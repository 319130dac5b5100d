import { MessageType } from '@qhorus/api';

/** What a read or a long poll asks for, beyond the seq range. Null fields do not filter. */
export interface MessageFilter {
  /** Only these types; null = every type but EVENT, unless `includeEvents`. */
  types: readonly MessageType[] | null;
  includeEvents: boolean;
  topic: string | null;
  sender: string | null;
  correlationId: string | null;
  target: string | null;
}

/** The fields of a message a filter looks at (a stored message, or a stream event's data). */
export interface FilterableMessage {
  type: string;
  topic: string;
  sender: string;
  correlationId: string | null;
  target: string | null;
}

export const NO_FILTER: MessageFilter = { types: null, includeEvents: false, topic: null, sender: null, correlationId: null, target: null };

/**
 * The same rule the SQL applies (`messagePageSql`), for deciding in memory whether a live
 * message wakes a long poll.
 */
export function matchesFilter(m: FilterableMessage, f: MessageFilter): boolean {
  if (f.types) {
    if (!f.types.includes(m.type as MessageType)) return false;
  } else if (!f.includeEvents && m.type === MessageType.EVENT) return false;
  return (
    (f.topic === null || m.topic === f.topic) &&
    (f.sender === null || m.sender === f.sender) &&
    (f.correlationId === null || m.correlationId === f.correlationId) &&
    (f.target === null || m.target === f.target)
  );
}
