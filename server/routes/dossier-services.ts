import { readPutAsides } from '../../runtime/fs/index.ts';
import { randomUUID } from 'node:crypto';
import {
  openDossierStore,
  type DossierModel,
  type DossierRunContext,
  type DossierStore,
} from '../../runtime/dossiers/index.ts';
import { memoryDirectory } from '../../runtime/memory/index.ts';
import { TopicStore } from '../../runtime/topics/index.ts';
import { OFFLINE_RECEIPT_MODEL_ID, WeftError } from '../../protocol/index.ts';
import { atlasServiceFor } from '../atlas/atlas-registry.ts';
import type { ServerContext } from '../server-context.ts';

const stores = new WeakMap<ServerContext, DossierStore>();

/** The server's one dossier store connection (opened on first use), shared by the dossier and memory routes. */
export function dossierStoreFor(context: ServerContext): DossierStore {
  let store = stores.get(context);
  if (!store) {
    store = openDossierStore(context.home, { hash: context.hash });
    stores.set(context, store);
  }
  return store;
}

export function topicStoreFor(context: ServerContext): TopicStore {
  return new TopicStore({
    directory: memoryDirectory(context.home),
    now: Date.now,
    newId: randomUUID,
    hash: context.hash,
  });
}

/** What a dossier run reads: the topic table, the why index (session turns) and the canvas records. */
export async function dossierRunContext(context: ServerContext): Promise<DossierRunContext> {
  return {
    store: dossierStoreFor(context),
    topics: topicStoreFor(context),
    sources: {
      database: await atlasServiceFor(context).turnDatabase(),
      canvases: context.canvases,
      putAsides: readPutAsides(context.home),
    },
    now: Date.now,
    newId: randomUUID,
    secrets: context.secretValues(),
    // Issue 29.1: on unless the person switched it off; each sentence cites its turns.
    autoAcceptSentences: (await context.settings.read()).memoryAutoAccept?.dossierSentences ?? true,
  };
}

/** The chat model a dossier is written with: the one named, else the default; never the offline receipt. */
export async function dossierModelInfo(
  context: ServerContext,
  named: string | undefined,
): Promise<{ id: string; pricePerMTokIn: number | null }> {
  const { models, defaultModelId } = await context.registry.listModels();
  const id = named ?? defaultModelId;
  if (id === OFFLINE_RECEIPT_MODEL_ID)
    throw new WeftError(
      'dossier-no-model',
      'Choose a chat model in Settings: the offline receipt calls no model and cannot write a dossier.',
      400,
    );
  const info = models.find((model) => model.id === id);
  if (!info) throw new WeftError('dossier-model-unknown', `There is no model ${id}.`, 400);
  return { id, pricePerMTokIn: info.pricePerMTokIn };
}

export async function resolveDossierModel(context: ServerContext, named: string | undefined): Promise<DossierModel> {
  const info = await dossierModelInfo(context, named);
  return { ...info, model: await context.registry.resolve(info.id) };
}
