// runtime/hash: core's SHA-256 port through OpenSSL (`node:crypto`), for every Node surface.
export { nodeHashPort } from './node-hash-port.ts';
