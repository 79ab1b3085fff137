import express, { type Router } from 'express';
import {
  MemoryImportRequestSchema,
  noteAuthor,
  questionAuthor,
  versionQuestionAuthor,
  type CanvasDocument,
  type MemoryWriteResponse,
  WeftError,
} from '../../protocol/index.ts';
import {
  importProfile,
  importedEvent,
  profileFromMarkdown,
  profileToMarkdown,
  type PersonWordsLookup,
} from '../../src/core/memory/index.ts';
import type { StoredMemory } from '../../runtime/memory/index.ts';
import type { MemoryRouteKit } from './memory-route-kit.ts';
import type { ServerContext } from '../server-context.ts';
import { validateBody } from '../validate-body.ts';

/** The profile as Markdown: `GET /memory/export` and `POST /memory/import` (`If-Match`). */
export function memoryMarkdownRoute(context: ServerContext, kit: MemoryRouteKit): Router {
  const router = express.Router();
  const { store, now, json, published, ifMatch } = kit;

  router.get('/memory/export', async (_request, response) => {
    const stored = await store.read();
    response.setHeader('Content-Type', 'text/markdown; charset=utf-8');
    response.setHeader('Content-Disposition', 'attachment; filename="weft-memory.md"');
    response.send(profileToMarkdown(stored.profile));
  });

  router.post('/memory/import', json, async (request, response) => {
    const { markdown } = validateBody(MemoryImportRequestSchema, request.body);
    const read = profileFromMarkdown(markdown);
    if (!read.ok) throw new WeftError(`memory-${read.error.code}`, read.error.message, 400);
    const personWords = await canvasWords(context, read.value);
    const { stored, result } = await store.update(ifMatch(request.headers['if-match']), (current) => {
      const imported = importProfile(current.profile, read.value, now(), personWords);
      if (!imported.ok)
        throw new WeftError('memory-import-credential', 'The import holds what looks like a key or password.', 400);
      const { profile, refused, importedOver } = imported.value;
      const events = [importedEvent(countLines(profile), profile.refusals.length, importedOver)];
      return { change: { profile, events }, result: { events, refused } };
    });
    const { revision } = published(stored);
    response.setHeader('ETag', `"${revision}"`);
    const body: MemoryWriteResponse = {
      revision,
      events: result.events,
      lineId: null,
      refused: result.refused,
    };
    response.json(body);
  });

  return router;
}

/**
 * What the person wrote at each imported line's origin, read from the canvases here (the questions asked at the
 * origin node and the canvas's notes), so an imported `stated` line keeps its label only if its span is among them.
 */
async function canvasWords(context: ServerContext, profile: StoredMemory['profile']): Promise<PersonWordsLookup> {
  const canvasIds = new Set(
    [...profile.documents.preferences, ...profile.documents.identity].flatMap((line) =>
      line.origin.canvasId ? [line.origin.canvasId] : [],
    ),
  );
  const documents = new Map<string, CanvasDocument>();
  for (const id of canvasIds) {
    try {
      documents.set(id, (await context.canvases.read(id)).document);
    } catch {
      // An unknown or unreadable canvas vouches for nothing: its lines fail the check.
    }
  }
  return (origin) => {
    const document = origin.canvasId ? documents.get(origin.canvasId) : undefined;
    if (!document) return null;
    return document.nodes.flatMap((node) => {
      if (node.kind === 'note') return noteAuthor(node) === 'person' ? [node.text] : [];
      // Only questions the person wrote: a model's sub-question or Weft's synthesis vouches for nothing (C14).
      if (node.kind === 'question' && node.id === origin.nodeId)
        return [
          ...(questionAuthor(node) === 'person' ? [node.question] : []),
          ...node.versions.flatMap((version) =>
            versionQuestionAuthor(node, version) === 'person' ? [version.question] : [],
          ),
        ];
      return [];
    });
  };
}

function countLines(profile: StoredMemory['profile']): number {
  return profile.documents.preferences.length + profile.documents.identity.length;
}
