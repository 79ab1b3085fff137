import { readPutAsides } from '../../runtime/fs/index.ts';
import { createWriteStream } from 'node:fs';
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import express, { type Request, type Router } from 'express';
import type { DocumentMaterialResponse, ImportStatus } from '../../protocol/index.ts';
import {
  DOCUMENT_MAX_BYTES,
  documentMaterial,
  ImportError,
  importConversations,
  importIdGenerator,
} from '../../runtime/import/index.ts';
import { rawBody } from '../read-body.ts';
import type { ServerContext } from '../server-context.ts';
import { WeftError } from '../../protocol/index.ts';

/** A conversations export may be large; it streams to disk and is never held in memory. */
export const CONVERSATIONS_UPLOAD_LIMIT = 2 * 1024 * 1024 * 1024;

interface ImportJob {
  status: ImportStatus;
  controller: AbortController;
}

/** A finished job's status stays readable this long, then is dropped (so the job list does not grow forever). */
export const FINISHED_IMPORT_KEPT_MS = 5 * 60_000;
/** Staging left older than this is from a server that stopped mid-import: swept when the route starts. */
export const STALE_STAGING_MS = 60 * 60_000;

export interface ImportRouteOptions {
  now?: () => number;
  finishedKeptMs?: number;
}

/**
 * Imports (C34): a ChatGPT or Claude.ai `conversations.json` (streamed to `$WEFT_HOME/imports`, then imported in the
 * background with progress on `/api/stream`, cancellable) and Markdown / HTML / DOCX documents as material text.
 */
export function importRoute(options: ImportRouteOptions = {}): (context: ServerContext) => Router {
  return (context) => {
    const router = express.Router();
    const now = options.now ?? Date.now;
    const newId = importIdGenerator(now);
    const jobs = new Map<string, ImportJob>();
    const directory = join(context.home, 'imports');
    const finishedKeptMs = options.finishedKeptMs ?? FINISHED_IMPORT_KEPT_MS;
    void sweepStaleStaging(directory, now()).catch((error: unknown) =>
      context.logger.warn('import staging sweep failed', { message: String(error) }),
    );

    const publish = (job: ImportJob, change: Partial<ImportStatus>) => {
      job.status = { ...job.status, ...change };
      context.hub.publish({ type: 'import-progress', ...job.status });
      if (job.status.state !== 'running') setTimeout(() => jobs.delete(job.status.importId), finishedKeptMs).unref();
    };

    router.post('/imports/conversations', async (request, response) => {
      const fileName = fileNameOf(request, 'conversations.json');
      const declared = Number(request.headers['content-length'] ?? 0);
      if (declared > CONVERSATIONS_UPLOAD_LIMIT)
        throw new WeftError('body-too-large', 'The export is larger than 2 GB.', 413);
      const importId = newId();
      await mkdir(directory, { recursive: true, mode: 0o700 });
      const upload = join(directory, `${importId}.upload.json`);
      const job: ImportJob = {
        controller: new AbortController(),
        status: {
          importId,
          fileName,
          state: 'running',
          phase: 'uploading',
          bytesRead: 0,
          totalBytes: declared,
          conversations: 0,
          canvasIds: [],
          error: null,
        },
      };
      jobs.set(importId, job);
      // Known (and cancellable) from the first byte: the stream tells the page its id while the upload runs.
      publish(job, {});
      try {
        await pipeline(request, limitBytes(CONVERSATIONS_UPLOAD_LIMIT), createWriteStream(upload, { mode: 0o600 }), {
          signal: job.controller.signal,
        });
      } catch (error) {
        await rm(upload, { force: true });
        if (job.controller.signal.aborted) {
          publish(job, {
            state: 'cancelled',
            error: { code: 'import-cancelled', message: 'The import was cancelled.', line: null, column: null },
          });
          throw new WeftError('import-cancelled', 'The import was cancelled during its upload.', 409);
        }
        jobs.delete(importId);
        if (error instanceof WeftError) throw error;
        throw new WeftError('bad-request', 'The export was not received completely.', 400);
      }
      context.logger.info('import started', { importId });
      response.status(202).json(job.status);
      void runImport(job, upload);
    });

    async function runImport(job: ImportJob, upload: string): Promise<void> {
      try {
        const result = await importConversations(upload, {
          canvases: context.canvases,
          stagingDirectory: directory,
          importId: job.status.importId,
          now,
          newId,
          hash: context.hash,
          putAsides: readPutAsides(context.home),
          signal: job.controller.signal,
          onProgress: (progress) => publish(job, progress),
        });
        for (const id of result.canvasIds) context.hub.publish({ type: 'canvas-changed', id });
        publish(job, {
          state: 'done',
          canvasIds: result.canvasIds,
          conversations: result.conversations,
          putAside: result.putAside,
        });
        context.logger.info('import done', { importId: job.status.importId, conversations: result.conversations });
      } catch (error) {
        const cancelled = error instanceof ImportError && error.code === 'import-cancelled';
        const code = error instanceof WeftError ? error.code : 'import-failed';
        const message = error instanceof Error ? error.message : String(error);
        const position = error instanceof ImportError ? error.position : null;
        publish(job, {
          state: cancelled ? 'cancelled' : 'failed',
          canvasIds: [],
          error: { code, message, line: position?.line ?? null, column: position?.column ?? null },
        });
        context.logger.warn('import refused', { importId: job.status.importId, code });
      } finally {
        await rm(upload, { force: true });
      }
    }

    router.get('/imports/:id', (request, response) => {
      const job = jobs.get(String(request.params.id));
      if (!job) throw new WeftError('not-found', 'No such import.', 404);
      response.json(job.status);
    });

    router.delete('/imports/:id', (request, response) => {
      const job = jobs.get(String(request.params.id));
      if (!job) throw new WeftError('not-found', 'No such import.', 404);
      job.controller.abort();
      response.json(job.status);
    });

    router.post(
      '/materials/document',
      rawBody(DOCUMENT_MAX_BYTES, [
        'application/octet-stream',
        'text/markdown',
        'text/html',
        'text/plain',
        'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      ]),
      async (request, response) => {
        if (!Buffer.isBuffer(request.body))
          throw new WeftError('unsupported-media-type', 'Send the document bytes as the request body.', 415);
        const fileName = fileNameOf(request, 'document');
        const material = await documentMaterial(fileName, new Uint8Array(request.body), now());
        context.logger.info('document material', {
          format: material.provenance.format,
          characters: material.text.length,
        });
        const body: DocumentMaterialResponse = material;
        response.json(body);
      },
    );
    return router;
  };
}

/** The file's own name from `?name=`, without any folder part. */
function fileNameOf(request: Request, fallback: string): string {
  const raw = typeof request.query.name === 'string' ? request.query.name : '';
  const base = raw.split(/[\\/]/).pop()?.trim() ?? '';
  return base.slice(0, 255) || fallback;
}

/** A pass-through that stops a body growing past the limit (a missing or false Content-Length). */
function limitBytes(limit: number): (source: AsyncIterable<Buffer>) => AsyncGenerator<Buffer> {
  return async function* (source) {
    let total = 0;
    for await (const chunk of source) {
      total += chunk.length;
      if (total > limit) throw new WeftError('body-too-large', 'The export is larger than 2 GB.', 413);
      yield chunk;
    }
  };
}

/** Removes staging and uploads left by a server that stopped mid-import (old enough that no import still owns them). */
async function sweepStaleStaging(directory: string, now: number): Promise<void> {
  const entries = await readdir(directory).catch(() => []);
  for (const entry of entries) {
    const path = join(directory, entry);
    const info = await stat(path).catch(() => null);
    if (info && now - info.mtimeMs > STALE_STAGING_MS) await rm(path, { recursive: true, force: true });
  }
}
