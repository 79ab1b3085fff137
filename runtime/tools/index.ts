export { chatToolset, isToolOutcome } from './chat-toolset.ts';
export type { ChatToolOptions, ToolOutcome } from './chat-toolset.ts';
export { scholarlySearch, CROSSREF_URL } from './scholarly-search.ts';
export type { ScholarlySearchOptions } from './scholarly-search.ts';
