import { randomUUID } from 'node:crypto';
import type { Response } from 'express';
import { WeftError, type MemoryWriteResponse } from '../../protocol/index.ts';
import type { EventDraft } from '../../src/core/index.ts';
import { AdditionsWindow, UndoBook, type MemoryStore, type StoredMemory } from '../../runtime/memory/index.ts';
import { memoryStoreFor } from './memory-store-for.ts';
import { jsonBody } from '../read-body.ts';
import type { ServerContext } from '../server-context.ts';
import { baseRevisionOf } from './canvases-route.ts';

/**
 * What the profile's routes share (`memory-route.ts` and the routes it mounts): the one store, the server's clock
 * and ids, the visit window and the undo book the judge fills and Undo empties, and how a write is answered.
 */
export interface MemoryRouteKit {
  store: MemoryStore;
  now: () => number;
  newId: () => string;
  visits: AdditionsWindow;
  undos: UndoBook;
  /** The JSON body parser of the memory routes (8 MiB: a Markdown import). */
  json: ReturnType<typeof jsonBody>;
  /** Tells the pages the profile changed; returns what it was given. */
  published: (stored: StoredMemory) => StoredMemory;
  /** A write's answer: its revision as the ETag, its events and the line it wrote. */
  sendWrite: (response: Response, stored: StoredMemory, events: EventDraft[], lineId: string | null) => void;
  /** The base revision a person's edit names in `If-Match` (428 without one). */
  ifMatch: (header: string | undefined) => string;
}

export function memoryRouteKit(context: ServerContext): MemoryRouteKit {
  const now = context.now;
  const newId = () => randomUUID();
  return {
    store: memoryStoreFor(context),
    now,
    newId,
    visits: new AdditionsWindow(now),
    undos: new UndoBook(now, newId),
    json: jsonBody(8 * 1024 * 1024),
    published: (stored) => {
      context.hub.publish({ type: 'memory-changed', revision: stored.revision });
      return stored;
    },
    sendWrite: (response, stored, events, lineId) => {
      response.setHeader('ETag', `"${stored.revision}"`);
      const body: MemoryWriteResponse = { revision: stored.revision, events, lineId };
      response.json(body);
    },
    ifMatch: (header) => {
      const base = baseRevisionOf(header);
      if (base === null)
        throw new WeftError('revision-required', 'A memory edit names its base revision in If-Match.', 428);
      return base;
    },
  };
}
