import { createHash } from 'node:crypto';
import mammoth from 'mammoth';
import type { MaterialProvenance } from '../../protocol/index.ts';
import { extractReadableText, normaliseWhitespace } from '../materials/index.ts';
import { ImportError } from './import-error.ts';

export type DocumentFormat = 'markdown' | 'html' | 'docx';

/** What a document becomes: a material's title, its text and where it came from. */
export interface DocumentMaterial {
  title: string;
  text: string;
  provenance: Extract<MaterialProvenance, { type: 'file' }>;
}

export const DOCUMENT_MAX_BYTES = 20 * 1024 * 1024;

const EXTENSIONS: Record<string, DocumentFormat> = {
  md: 'markdown',
  markdown: 'markdown',
  html: 'html',
  htm: 'html',
  docx: 'docx',
};

export function documentFormatOf(fileName: string): DocumentFormat | null {
  const extension = /\.([A-Za-z]+)$/.exec(fileName)?.[1]?.toLowerCase();
  return extension ? (EXTENSIONS[extension] ?? null) : null;
}

/**
 * A Markdown, HTML or DOCX file as material text (C34). Markdown is kept as written; HTML goes through the same
 * Readability reading as URL snapshots; DOCX through mammoth's raw text (paragraphs kept, formatting dropped).
 * The provenance names the file, its format, the SHA-256 of its bytes and when it was imported.
 */
export async function documentMaterial(fileName: string, bytes: Uint8Array, now: number): Promise<DocumentMaterial> {
  const format = documentFormatOf(fileName);
  if (!format) throw new ImportError('import-unsupported-file', `"${fileName}" is not a Markdown, HTML or DOCX file.`);
  if (bytes.byteLength > DOCUMENT_MAX_BYTES)
    throw new ImportError('import-unsupported-file', `"${fileName}" is larger than ${DOCUMENT_MAX_BYTES >> 20} MB.`);
  const base = fileName.replace(/\.[A-Za-z]+$/, '') || fileName;
  let title = base;
  let text: string;
  if (format === 'docx') {
    text = await docxText(fileName, bytes);
  } else {
    const source = utf8(fileName, bytes);
    if (format === 'markdown') {
      text = source.replace(/\r\n?/g, '\n').trim();
      title = /^#\s+(.+)$/m.exec(text)?.[1]?.trim() || base;
    } else {
      const readable = extractReadableText(source, `file:///${encodeURIComponent(fileName)}`);
      text = readable.text;
      title = readable.title || base;
    }
  }
  if (!text) throw new ImportError('import-empty', `"${fileName}" has no text.`);
  return {
    title: title.slice(0, 200),
    text,
    provenance: {
      type: 'file',
      fileName,
      format,
      documentHash: createHash('sha256').update(bytes).digest('hex'),
      importedAt: now,
    },
  };
}

async function docxText(fileName: string, bytes: Uint8Array): Promise<string> {
  try {
    const result = await mammoth.extractRawText({
      buffer: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
    });
    return normaliseWhitespace(result.value);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ImportError('import-malformed', `"${fileName}" is not a readable DOCX file: ${reason}`);
  }
}

function utf8(fileName: string, bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new ImportError('import-malformed', `"${fileName}" is not UTF-8 text.`);
  }
}
