import { Injectable } from '@nestjs/common';
import { Message, MessageType, SummaryResult, summaryResult } from '@qhorus/api';
import { renderMessage } from '@qhorus/blocks-channel-summary';
import { ContentSummariser, overlayAnnotations, SummariseOptions } from '@qhorus/blocks-summarisation';

/** Annotation keys this summariser owns. Prefixed, so they never collide with the built-ins' keys. */
export const INCIDENT_KEYS = Object.freeze({
  status: 'incident.status',
  severity: 'incident.severity',
  responders: 'incident.responders',
  timeline: 'incident.timeline',
});

export type IncidentStatus = 'investigating' | 'mitigated' | 'resolved';

/** Notable lines kept in the timeline (newest last): the report stays bounded however long the incident. */
export const INCIDENT_TIMELINE_CAP = 8;
/** Responders listed at most (the earliest to join are kept). */
export const INCIDENT_RESPONDERS_CAP = 50;

const SEVERITY_IN_TEXT = /\bSEV\s?([1-4])\b/i;
const RESOLVED_IN_TEXT = /\bresolved\b/i;
const MITIGATED_IN_TEXT = /\bmitigat(ed|ion)\b/i;
/** Types that always make the timeline: someone failed, handed over or finished. */
const NOTABLE_TYPES: ReadonlySet<MessageType> = new Set([MessageType.FAILURE, MessageType.HANDOFF, MessageType.DONE]);

/**
 * A domain team's summariser for incident channels: "what is the status, how bad is it, who is on
 * it, what happened last". Zero LLM cost. Like every ContentSummariser it keeps its state in its
 * own annotation keys, starts from the previous annotations and overlays only those keys, and
 * never returns a blank text.
 */
@Injectable()
export class IncidentSummariser implements ContentSummariser<Message> {
  async summarise(items: readonly Message[], previous?: SummaryResult | null, options?: SummariseOptions): Promise<SummaryResult> {
    const before = previous?.annotations ?? {};
    let status = (before[INCIDENT_KEYS.status] as IncidentStatus | undefined) ?? 'investigating';
    let severity = before[INCIDENT_KEYS.severity] ?? 'unknown';
    const responders = readList(before[INCIDENT_KEYS.responders]);
    const timeline = readList(before[INCIDENT_KEYS.timeline]);

    for (const m of items) {
      if (m.type === MessageType.EVENT) continue; // machine telemetry: not part of the human story
      if (!responders.includes(m.sender) && responders.length < INCIDENT_RESPONDERS_CAP) responders.push(m.sender);
      const mentioned = severityOf(m);
      const worse = mentioned !== null && (severity === 'unknown' || mentioned < severity); // "SEV1" < "SEV2": keep the worst
      const nextStatus = statusAfter(status, m);
      if (worse || nextStatus !== status || NOTABLE_TYPES.has(m.type)) timeline.push(renderMessage(m));
      if (worse) severity = mentioned;
      status = nextStatus;
    }
    const recent = timeline.slice(-INCIDENT_TIMELINE_CAP);

    const lines = [
      ...(options?.preamble ? [options.preamble, ''] : []),
      `Incident status: ${status.toUpperCase()} (${severity})`,
      `Responders (${responders.length}): ${responders.join(', ') || 'none yet'}`,
      ...(recent.length > 0 ? ['', `Timeline (latest ${recent.length}):`, ...recent.map((line) => `- ${line}`)] : []),
    ];
    return summaryResult(
      lines.join('\n'),
      overlayAnnotations(previous, {
        [INCIDENT_KEYS.status]: status,
        [INCIDENT_KEYS.severity]: severity,
        [INCIDENT_KEYS.responders]: JSON.stringify(responders),
        [INCIDENT_KEYS.timeline]: JSON.stringify(recent),
      }),
    );
  }
}

/** "SEV2" from metadata `{ severity: 'SEV2' }` or from the text, else null. */
function severityOf(m: Message): string | null {
  const fromMetadata = typeof m.metadata?.severity === 'string' ? m.metadata.severity : '';
  const match = SEVERITY_IN_TEXT.exec(fromMetadata) ?? SEVERITY_IN_TEXT.exec(m.content);
  return match ? `SEV${match[1]}` : null;
}

function statusAfter(current: IncidentStatus, m: Message): IncidentStatus {
  if (m.type === MessageType.DONE || RESOLVED_IN_TEXT.test(m.content)) return 'resolved';
  if (m.type === MessageType.FAILURE) return 'investigating'; // a failed fix re-opens the investigation
  if (MITIGATED_IN_TEXT.test(m.content)) return 'mitigated';
  return current;
}

/** A JSON array of strings from an annotation; anything malformed reads as empty. */
function readList(value: string | undefined): string[] {
  try {
    const parsed: unknown = JSON.parse(value ?? '[]');
    return Array.isArray(parsed) ? parsed.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
}
