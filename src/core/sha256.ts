/**
 * SHA-256 (FIPS 180-4) in plain TypeScript, written for V8: one compression loop over local
 * 32-bit integers, reading blocks straight from the input (only the padded tail is copied).
 * About twice the throughput of a general-purpose implementation, which the fingerprint and
 * request-hash paths need; checked against @noble/hashes and NIST vectors in hashing.test.ts.
 */
const K = new Int32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
  0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
  0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
  0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
  0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
  0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
  0xc67178f2,
]);

const W = new Int32Array(64);

function compress(state: Int32Array, data: Uint8Array, offset: number, end: number): void {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const w = W;
  let h0 = state[0]!,
    h1 = state[1]!,
    h2 = state[2]!,
    h3 = state[3]!;
  let h4 = state[4]!,
    h5 = state[5]!,
    h6 = state[6]!,
    h7 = state[7]!;
  for (let position = offset; position < end; position += 64) {
    for (let index = 0; index < 16; index += 1) w[index] = view.getInt32(position + index * 4);
    for (let index = 16; index < 64; index += 1) {
      const before15 = w[index - 15]!;
      const before2 = w[index - 2]!;
      const sigma0 = ((before15 >>> 7) | (before15 << 25)) ^ ((before15 >>> 18) | (before15 << 14)) ^ (before15 >>> 3);
      const sigma1 = ((before2 >>> 17) | (before2 << 15)) ^ ((before2 >>> 19) | (before2 << 13)) ^ (before2 >>> 10);
      w[index] = (sigma1 + w[index - 7]! + sigma0 + w[index - 16]!) | 0;
    }
    let a = h0,
      b = h1,
      c = h2,
      d = h3,
      e = h4,
      f = h5,
      g = h6,
      h = h7;
    for (let index = 0; index < 64; index += 1) {
      const sum1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
      const choose = (e & f) ^ (~e & g);
      const temp1 = (h + sum1 + choose + K[index]! + w[index]!) | 0;
      const sum0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
      const majority = (a & b) ^ (a & c) ^ (b & c);
      const temp2 = (sum0 + majority) | 0;
      h = g;
      g = f;
      f = e;
      e = (d + temp1) | 0;
      d = c;
      c = b;
      b = a;
      a = (temp1 + temp2) | 0;
    }
    h0 = (h0 + a) | 0;
    h1 = (h1 + b) | 0;
    h2 = (h2 + c) | 0;
    h3 = (h3 + d) | 0;
    h4 = (h4 + e) | 0;
    h5 = (h5 + f) | 0;
    h6 = (h6 + g) | 0;
    h7 = (h7 + h) | 0;
  }
  state[0] = h0;
  state[1] = h1;
  state[2] = h2;
  state[3] = h3;
  state[4] = h4;
  state[5] = h5;
  state[6] = h6;
  state[7] = h7;
}

/** TextEncoder is a global of every runtime core runs in (browsers, Node); typed here because
 * core compiles without DOM or Node types. It returns a fresh array: no defensive copy needed. */
const encoder = new (
  globalThis as unknown as { TextEncoder: new () => { encode(text: string): Uint8Array } }
).TextEncoder();

/** UTF-8 bytes of `text`; short ASCII (the tokens fingerprints stream) skips the encoder's call cost. */
function utf8Bytes(text: string): Uint8Array {
  if (text.length > 256) return encoder.encode(text);
  const bytes = new Uint8Array(text.length);
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code > 0x7f) return encoder.encode(text);
    bytes[index] = code;
  }
  return bytes;
}

const HEX: string[] = Array.from({ length: 256 }, (_, value) => value.toString(16).padStart(2, '0'));

const INITIAL = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];

/**
 * Incremental SHA-256 that can be cloned mid-stream, so a hash over a shared prefix is computed
 * once and extended many times (fingerprints of a chain share their upstream prefix).
 */
export class Sha256Stream {
  private readonly state: Int32Array;
  private readonly pending: Uint8Array;
  private pendingLength: number;
  private length: number;

  constructor(from?: Sha256Stream) {
    this.state = from ? from.state.slice() : Int32Array.from(INITIAL);
    this.pending = from ? from.pending.slice() : new Uint8Array(64);
    this.pendingLength = from ? from.pendingLength : 0;
    this.length = from ? from.length : 0;
  }

  clone(): Sha256Stream {
    return new Sha256Stream(this);
  }

  /** Text is hashed as UTF-8. */
  update(input: Uint8Array | string): this {
    const data = typeof input === 'string' ? utf8Bytes(input) : input;
    let offset = 0;
    this.length += data.length;
    if (this.pendingLength > 0) {
      const take = Math.min(64 - this.pendingLength, data.length);
      this.pending.set(data.subarray(0, take), this.pendingLength);
      this.pendingLength += take;
      offset = take;
      if (this.pendingLength < 64) return this;
      compress(this.state, this.pending, 0, 64);
      this.pendingLength = 0;
    }
    const whole = offset + Math.floor((data.length - offset) / 64) * 64;
    compress(this.state, data, offset, whole);
    this.pending.set(data.subarray(whole), 0);
    this.pendingLength = data.length - whole;
    return this;
  }

  /** Finishes a copy, so the stream itself can still be extended. */
  digestHex(): string {
    const state = this.state.slice();
    const used = this.pendingLength;
    const tailLength = used < 56 ? 64 : 128;
    const tail = new Uint8Array(tailLength);
    tail.set(this.pending.subarray(0, used));
    tail[used] = 0x80;
    const bits = this.length * 8;
    const high = Math.floor(bits / 0x100000000);
    const low = bits >>> 0;
    tail[tailLength - 8] = high >>> 24;
    tail[tailLength - 7] = (high >>> 16) & 0xff;
    tail[tailLength - 6] = (high >>> 8) & 0xff;
    tail[tailLength - 5] = high & 0xff;
    tail[tailLength - 4] = low >>> 24;
    tail[tailLength - 3] = (low >>> 16) & 0xff;
    tail[tailLength - 2] = (low >>> 8) & 0xff;
    tail[tailLength - 1] = low & 0xff;
    compress(state, tail, 0, tailLength);
    // Joined, not appended: `+=` leaves a tree of 15 string pieces (~300 bytes) where the flat 64 characters take
    // ~80, and the canvas keeps two digests per node.
    const words: string[] = [];
    for (let index = 0; index < 8; index += 1) {
      const word = state[index]!;
      words.push(
        HEX[(word >>> 24) & 0xff]! + HEX[(word >>> 16) & 0xff]! + HEX[(word >>> 8) & 0xff]! + HEX[word & 0xff]!,
      );
    }
    return words.join('');
  }
}
