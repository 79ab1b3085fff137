export { chatToolset, isToolOutcome } from './chat-toolset.ts';
export type { ChatToolOptions, ToolOutcome } from './chat-toolset.ts';
export { scholarlySearch, CROSSREF_URL } from './scholarly-search.ts';
export type { ScholarlySearchOptions } from './scholarly-search.ts';
export { arxivSearch, ARXIV_URL } from './arxiv-search.ts';
export { semanticScholarSearch, SEMANTIC_SCHOLAR_URL } from './semantic-scholar-search.ts';
export type { SearchServiceOptions } from './search-service-options.ts';
