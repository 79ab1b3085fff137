// Handlers are loaded lazily by cli/main.ts; this file names them for readers and tools.
export { run as runIndex } from './index-command.ts';
export { run as runWhy } from './why-command.ts';
export { run as runFind } from './find-command.ts';
export { run as runRecall } from './recall-command.ts';
export { run as runStatus } from './status-command.ts';
export { run as runVerify } from './verify-command.ts';
export { run as runPurge } from './purge-command.ts';
export { run as runArchive } from './archive-command.ts';
export { run as runMcp } from './mcp-command.ts';
export { run as runDb } from './db-command.ts';
export { run as runSetup } from './setup-command.ts';
export { run as runImport } from './import-command.ts';
export { run as runCompile } from './compile-command.ts';
export { run as runBundle } from './bundle-command.ts';
export { run as runTopics } from './topics-command.ts';
export { run as runDossier } from './dossier-command.ts';
export { run as runMemory } from './memory-command.ts';
