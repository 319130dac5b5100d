export * from './summary-result';
export * from './message';
export * from './channel';
export * from './summary-update-hook';
export * from './thread-rules';
export * from './model-call-meter';
