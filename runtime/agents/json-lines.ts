/**
 * Splits a byte stream into JSON records on LF only. Pi's RPC framing and Codex's app-server both write one JSON
 * value per `\n`; U+2028 and U+2029 occur inside their strings, so a generic line reader (node:readline) would cut
 * records apart. A trailing `\r` is stripped; a line that is not JSON is handed to `onNoise` instead of thrown.
 */
export class JsonLines {
  private pending = '';
  private readonly decoder = new TextDecoder('utf-8');

  constructor(
    private readonly onRecord: (record: unknown, line: string) => void,
    private readonly onNoise: (line: string) => void = () => undefined,
  ) {}

  push(chunk: Uint8Array | string): void {
    this.pending += typeof chunk === 'string' ? chunk : this.decoder.decode(chunk, { stream: true });
    let newline = this.pending.indexOf('\n');
    while (newline !== -1) {
      const line = this.pending.slice(0, newline);
      this.pending = this.pending.slice(newline + 1);
      this.emit(line);
      newline = this.pending.indexOf('\n');
    }
  }

  /** The stream ended: a last line without its newline still counts. */
  end(): void {
    this.pending += this.decoder.decode();
    if (this.pending.length > 0) this.emit(this.pending);
    this.pending = '';
  }

  private emit(raw: string): void {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line.trim() === '') return;
    let record: unknown;
    try {
      record = JSON.parse(line);
    } catch {
      this.onNoise(line);
      return;
    }
    this.onRecord(record, line);
  }
}
