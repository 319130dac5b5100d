/**
 * @qhorus/client: a typed client of the Qhorus HTTP API, generated from its OpenAPI document.
 * Boundary: this package imports nothing of the service (apps/) nor of the other libs; it speaks
 * HTTP only, so it can ship on its own.
 */
export { QhorusClient, DEFAULT_POST_ATTEMPTS, IDEMPOTENCY_HEADER } from './qhorus-client';
export type { Channel, CreateChannel, CreateWebhook, ExportLine, InboxChange, InboxItem, Message, PostMessage, QhorusClientOptions, ReadCursor, SearchPage, SearchResult, Summary, WaitForInboxOptions, WaitForMessagesOptions, Webhook, WebhookAttempt } from './qhorus-client';
export { QhorusError } from './qhorus-error';
export type { ApiErrorBody } from './qhorus-error';
export { channelEvents } from './event-stream';
export type { ChannelEvent, EventStreamOptions, SummaryUpdatedEventData } from './event-stream';
export { toAnthropicMessages, toOpenAIMessages } from './provider-messages';
export type { AnthropicMessage, ContextResponse, OpenAIChatMessage, ProjectedMessage } from './provider-messages';
export { OPERATIONS } from './generated/operations';
export type { OperationId } from './generated/operations';
export type { CallArgs, OperationResult } from './operation-types';
export type { components, operations, paths } from './generated/openapi';
