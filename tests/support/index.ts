// Shared test helpers: a scripted provider, a real test server, an SSE reader, a PDF writer.
export { startScriptedProvider } from './scripted-provider.ts';
export type { ScriptedProvider, ScriptedReply, ScriptedToolCall, RecordedRequest } from './scripted-provider.ts';
export { startScriptedCrossref } from './scripted-crossref.ts';
export type { ScriptedCrossref, ScriptedWork } from './scripted-crossref.ts';
export { readStreamEvents, collectStreamEvents } from './sse-client.ts';
export { startTestServer, memoryLogger } from './test-server.ts';
export type { TestServer } from './test-server.ts';
export { minimalPdf } from './minimal-pdf.ts';
export { rawRequest } from './raw-request.ts';
export { sampleCanvas } from './sample-canvas.ts';
export { StoredExchanges } from './stored-exchange.ts';
export type { ExchangeTexts, StoredExchange } from './stored-exchange.ts';
export { FIXTURES } from './fixtures-directory.ts';
export type { RawResponse } from './raw-request.ts';
export { ensureBuilt, launchChromium, repoRoot } from './browser.ts';
export { writeSyntheticChatgptExport } from './synthetic-chatgpt-export.ts';
export type { SyntheticExportOptions } from './synthetic-chatgpt-export.ts';
