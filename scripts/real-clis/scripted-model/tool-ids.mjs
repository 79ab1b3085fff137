// Tool-call ids the scripted model mints encode exchange and step: <prefix>e<E>s<S>k<K>x<random>, so the script
// position can be read back from any later request (retries and side requests never desynchronise it).
import crypto from 'node:crypto';

export function mintId(prefix, e, s, k) {
  return `${prefix}e${e}s${s}k${k}x${crypto.randomBytes(6).toString('hex')}`;
}
export function parseId(id) {
  const m = /e(\d+)s(\d+)k(\d+)x[0-9a-f]+$/.exec(String(id || ''));
  return m ? { e: +m[1], s: +m[2], k: +m[3] } : null;
}
