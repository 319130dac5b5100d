import type { OpenAPIObject, ResponseObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { operationsOf } from './error-responses';

const CHANNEL = {
  name: 'release-42',
  description: 'Shipping release 42: planner, coder, reviewer and tester',
  summaryThreshold: 20,
  summaryThresholdTokens: null,
  updateAfterSeconds: null,
  summariser: 'heuristic',
  members: null,
  lastSeq: 57,
  createdBy: 'planner',
  createdAt: '2025-01-15T09:30:00.000Z',
};
const MESSAGE = {
  id: '1042',
  channel: 'release-42',
  seq: 57,
  type: 'QUERY',
  sender: 'coder',
  content: 'Does the migration need a backfill for existing rows?',
  topic: 'migration',
  correlationId: 'q-7f3a',
  inReplyTo: null,
  target: null,
  metadata: { ticket: 'REL-42' },
  createdAt: '2025-01-15T10:02:11.000Z',
};
const SUMMARY = {
  channel: 'release-42',
  text: 'Participants: planner (12), coder (25), reviewer (11), tester (9).\nDecided: ship behind a flag.\nOpen: coder asked whether the migration needs a backfill (q-7f3a).',
  annotations: {
    tier: 'grouped',
    itemCount: '20',
    participants: '["planner","coder","reviewer","tester"]',
    openThreads: '[{"correlationId":"q-7f3a","type":"QUERY","sender":"coder","seq":57}]',
  },
  coversThroughSeq: 40,
  lastSeq: 57,
  pending: 17,
  pendingTokens: 596,
  version: 2,
  updatedAt: '2025-01-15T10:00:03.000Z',
  updatedBy: 'summariser:heuristic',
  lastError: null,
  lastErrorAt: null,
  summariser: 'heuristic',
};

interface OperationExample {
  request?: unknown;
  response?: unknown;
}

/** A realistic request and answer for the main operations, so the docs read like the API in use. */
export const OPERATION_EXAMPLES: Record<string, OperationExample> = {
  AgentsController_register: { request: { name: 'planner' }, response: { name: 'planner', token: 'qh_…shown once…', createdAt: CHANNEL.createdAt } },
  AgentsController_list: { response: [{ name: 'planner', createdAt: CHANNEL.createdAt }] },
  ChannelsController_create: {
    request: { name: CHANNEL.name, description: CHANNEL.description, summaryThreshold: 20 },
    response: { ...CHANNEL, lastSeq: 0, warnings: [] },
  },
  ChannelsController_list: { response: [CHANNEL] },
  ChannelsController_get: { response: CHANNEL },
  ChannelsController_update: { request: { summaryThreshold: 10 }, response: { ...CHANNEL, summaryThreshold: 10, warnings: [] } },
  MessagesController_post: {
    request: { type: 'QUERY', content: MESSAGE.content, topic: MESSAGE.topic, metadata: MESSAGE.metadata },
    response: MESSAGE,
  },
  MessagesController_list: { response: [MESSAGE] },
  SummaryController_get: { response: SUMMARY },
  SummaryController_refresh: { response: { channel: CHANNEL.name, queued: true, pending: 17 } },
  SummaryController_override: { request: { text: 'Ship behind a flag; backfill decided: not needed.', expectedVersion: 2 }, response: { ...SUMMARY, version: 3, pending: 0 } },
  SummaryController_history: {
    response: [{ version: 2, text: SUMMARY.text, annotations: SUMMARY.annotations, coversFromSeq: 21, coversThroughSeq: 40, updatedBy: 'summariser:heuristic', createdAt: SUMMARY.updatedAt }],
  },
};

const JSON_TYPE = 'application/json';

/** Puts the examples on the request bodies and the success responses of their operations. */
export function documentExamples(document: OpenAPIObject): void {
  for (const { operation } of operationsOf(document)) {
    const example = OPERATION_EXAMPLES[operation.operationId ?? ''];
    if (!example) continue;
    const body = operation.requestBody as { content?: Record<string, { example?: unknown }> } | undefined;
    if (example.request !== undefined && body?.content?.[JSON_TYPE]) body.content[JSON_TYPE].example = example.request;
    if (example.response === undefined) continue;
    const success = Object.keys(operation.responses).find((s) => s.startsWith('2'));
    if (!success) continue;
    const response = operation.responses[success] as ResponseObject;
    const schema = Array.isArray(example.response) ? { type: 'array', items: { type: 'object' } } : { type: 'object' };
    response.content ??= { [JSON_TYPE]: { schema } };
    response.content[JSON_TYPE] ??= { schema };
    response.content[JSON_TYPE].example = example.response;
  }
}
