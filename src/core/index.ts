/** The neutral core: types shared by routes, pipeline, providers and tool formats. */
export * from './agent-text-syntax.js';
export * from './assert-never.js';
export * from './chat-request.js';
export * from './diagnostics.js';
export * from './finish-reason.js';
export * from './gateway-error.js';
export * from './logger.js';
export * from './message.js';
export * from './tool-result-text.js';
export * from './provider-adapter.js';
export * from './random-id.js';
export * from './resolved-model.js';
export * from './stream-event.js';
export * from './tool-definition.js';
export * from './tool-format.js';
export * from './usage.js';
export * from './warning.js';
