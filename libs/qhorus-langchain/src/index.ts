/** A LangChain.js chat message history backed by a Qhorus channel. Imports only @qhorus/client and @langchain/core. */
export { DEFAULT_RECENT_MESSAGES, LANGCHAIN_ROLE_KEY, QhorusChatMessageHistory } from './qhorus-chat-message-history';
export type { QhorusChatMessageHistoryOptions } from './qhorus-chat-message-history';
