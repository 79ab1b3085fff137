// runtime/fs/home: where WEFT_HOME is (and the real path of a folder), on its own surface so a reader that only needs the path (the Atlas, and so
// every session-read worker thread) does not load the record store, its schemas and core with it.
export {
  resolveWeftHome,
  ensureWeftHome,
  ensurePrivateDirectory,
  canvasesDirectory,
  indexDatabasePath,
} from './weft-home.ts';
export { realPathOfNearest } from './real-path-of-nearest.ts';
