/** The shapes a projection can be rendered in (DESIGN §5). */
export const CONTEXT_FORMATS = ['anthropic', 'openai', 'text'] as const;
export type ContextFormat = (typeof CONTEXT_FORMATS)[number];
export const DEFAULT_CONTEXT_FORMAT: ContextFormat = 'anthropic';
