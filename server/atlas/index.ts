// server/atlas: the Session Atlas behind `/api/atlas/*` (index-backed listing, fenced reads, live follow).
export { AtlasService, atlasServiceFor, closeAtlasService } from './atlas-registry.ts';
export type { AtlasServiceOptions } from './atlas-service.ts';
export { listIndexedSessions, sessionRowsFor } from './atlas-listing.ts';
export type { ListRequest } from './atlas-listing.ts';
