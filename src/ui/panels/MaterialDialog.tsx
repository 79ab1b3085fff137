import { useEffect, useRef, useState } from 'react';
import { sha256Hex, type GraphChange } from '../../core/index.ts';
import { describeError } from '../api/index.ts';
import { useWeftStore, useEscape } from '../kit/index.ts';
import { canvasBridge } from '../commands/index.ts';
import { openPdfDocument, readPdfPages, type PDFDocumentProxy } from './pdf-text.ts';
import { PdfPageView } from './pdf/PdfPageView.tsx';
import { pageLabel, readSelectionParts, selectionPages, selectionText } from './pdf/pdf-selection.ts';

type Tab = 'paste' | 'url' | 'pdf' | 'image';
type MaterialChange = Extract<GraphChange, { type: 'import-material' }>;

function base64Of(bytes: Uint8Array): string {
  let binary = '';
  for (let index = 0; index < bytes.length; index += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(index, index + 0x8000));
  return btoa(binary);
}

/** Width of a rendered PDF page in the dialog, in CSS pixels. */
const PDF_PAGE_WIDTH = 680;

/** Per-page parts of the window's selection, read from the pages' pdf.js text layers. */
function readPdfSelection(container: Element | null) {
  const selection = window.getSelection();
  if (!container || !selection || selection.isCollapsed || selection.rangeCount === 0) return [];
  const layers = [...container.querySelectorAll('[data-page]')].flatMap((element) => {
    const layer = element.querySelector('.textLayer');
    return layer ? [{ page: Number(element.getAttribute('data-page')), layer }] : [];
  });
  return Array.from({ length: selection.rangeCount }, (_, index) =>
    readSelectionParts(selection.getRangeAt(index), layers),
  ).flat();
}

export function MaterialDialog({ onClose }: { onClose: () => void }) {
  const store = useWeftStore();
  const [tab, setTab] = useState<Tab>('paste');
  useEscape(true, onClose);
  const [title, setTitle] = useState('');
  const [text, setText] = useState('');
  const [url, setUrl] = useState('');
  const [busy, setBusy] = useState(false);
  const [pdf, setPdf] = useState<{ fileName: string; hash: string; document: PDFDocumentProxy; aspect: number } | null>(
    null,
  );
  const [pagesElement, setPagesElement] = useState<HTMLDivElement | null>(null);
  // The document lives in pdf.js's worker until the dialog closes or another file replaces it. The
  // destroy waits a tick: StrictMode re-runs this effect at once with the same document, which must live.
  const liveDocument = useRef<PDFDocumentProxy | null>(null);
  useEffect(() => {
    const document = pdf?.document ?? null;
    liveDocument.current = document;
    return () => {
      if (!document) return;
      liveDocument.current = null;
      setTimeout(() => {
        if (liveDocument.current !== document) void document.destroy();
      }, 0);
    };
  }, [pdf]);

  const add = (change: MaterialChange) => {
    const position = canvasBridge.newNodePosition();
    const before = new Set(store.getState().graph?.nodes.keys() ?? []);
    if (!store.getState().apply({ ...change, material: { ...change.material, position } })) return;
    onClose();
    // Select the new material and bring it into view, as adding any node does.
    const created = [...(store.getState().graph?.nodes.keys() ?? [])].find((id) => !before.has(id));
    if (created) {
      store.getState().setSelection([created]);
      store.getState().focusNode(created);
      canvasBridge.ensureVisible(created);
    }
  };
  const fail = (error: unknown) => {
    const { code, message } = describeError(error);
    store.getState().toast('error', code, message);
  };

  const fetchUrl = async () => {
    setBusy(true);
    try {
      const snapshot = await store.api.fetchUrl(url.trim());
      add({
        type: 'import-material',
        material: {
          kind: 'material',
          title: snapshot.title || snapshot.finalUrl,
          text: snapshot.text,
          provenance: {
            type: 'url',
            url: snapshot.url,
            finalUrl: snapshot.finalUrl,
            fetchedAt: snapshot.fetchedAt,
            title: snapshot.title,
          },
        },
      });
    } catch (error) {
      fail(error);
    } finally {
      setBusy(false);
    }
  };

  const openPdf = async (file: File) => {
    setBusy(true);
    try {
      const bytes = await file.arrayBuffer();
      const hash = sha256Hex(new Uint8Array(bytes));
      const document = await openPdfDocument(bytes);
      const first = (await document.getPage(1)).getViewport({ scale: 1 });
      setPdf({ fileName: file.name, hash, document, aspect: first.width / first.height });
    } catch (error) {
      fail({ code: 'pdf-invalid', message: `Could not read ${file.name}: ${(error as Error).message}` });
    } finally {
      setBusy(false);
    }
  };

  const addPdf = async (whole: boolean) => {
    if (!pdf) return;
    let pages: number[];
    let body: string;
    if (whole) {
      setBusy(true);
      try {
        const texts = await readPdfPages(pdf.document);
        pages = texts.map((page) => page.number);
        body = texts.map((page) => page.text).join('\n\n');
      } catch (error) {
        // Closing the dialog mid-read destroys the document: that is not a failure to report.
        if (liveDocument.current === pdf.document)
          fail({ code: 'pdf-invalid', message: `Could not read ${pdf.fileName}: ${(error as Error).message}` });
        return;
      } finally {
        setBusy(false);
      }
      if (liveDocument.current !== pdf.document) return;
    } else {
      const parts = readPdfSelection(pagesElement);
      pages = selectionPages(parts);
      body = selectionText(parts);
    }
    if (!body || pages.length === 0) {
      store
        .getState()
        .toast(
          'error',
          whole ? 'pdf-no-text' : 'empty-selection',
          whole ? 'This PDF has no text to import (it may be scanned images).' : 'Select some text on the pages first.',
        );
      return;
    }
    add({
      type: 'import-material',
      material: {
        kind: 'material',
        title: `${pdf.fileName} · ${pageLabel(pages)}`,
        text: body,
        provenance: { type: 'pdf', fileName: pdf.fileName, pages, documentHash: pdf.hash },
      },
    });
  };

  const addImage = async (file: File) => {
    const bytes = new Uint8Array(await file.arrayBuffer());
    const hash = sha256Hex(bytes);
    add({
      type: 'import-material',
      material: {
        kind: 'material',
        title: file.name,
        text: '',
        provenance: { type: 'image', attachmentHash: hash, fileName: file.name },
      },
      attachments: [
        {
          hash,
          mediaType: file.type || 'application/octet-stream',
          name: file.name,
          byteLength: bytes.length,
          dataBase64: base64Of(bytes),
        },
      ],
    });
  };

  return (
    <div className="overlay" onClick={onClose}>
      <div
        className="dialog"
        style={{ width: tab === 'pdf' && pdf ? PDF_PAGE_WIDTH + 80 : 520 }}
        role="dialog"
        aria-label="Import material"
        data-testid="material-dialog"
        onClick={(event) => event.stopPropagation()}
      >
        <h2>Import material</h2>
        <div className="tabs" style={{ marginBottom: 14 }}>
          {(['paste', 'url', 'pdf', 'image'] as const).map((name) => (
            <button
              key={name}
              className="tab"
              aria-selected={tab === name}
              data-testid={`material-tab-${name}`}
              onClick={() => setTab(name)}
            >
              {{ paste: 'Pasted text', url: 'Web page', pdf: 'PDF', image: 'Image' }[name]}
            </button>
          ))}
        </div>
        {tab === 'paste' && (
          <>
            <label className="field">
              <span>Title</span>
              <input
                className="input"
                data-testid="material-paste-title"
                value={title}
                onChange={(event) => setTitle(event.target.value)}
              />
            </label>
            <label className="field">
              <span>Text</span>
              <textarea
                className="textarea"
                rows={8}
                data-testid="material-paste-text"
                value={text}
                onChange={(event) => setText(event.target.value)}
              />
            </label>
            <div className="actions">
              <button className="button" onClick={onClose}>
                Cancel
              </button>
              <button
                className="button primary"
                data-testid="material-paste-add"
                disabled={!text.trim()}
                onClick={() =>
                  add({
                    type: 'import-material',
                    material: {
                      kind: 'material',
                      title: title.trim() || text.trim().slice(0, 60),
                      text,
                      provenance: { type: 'pasted' },
                    },
                  })
                }
              >
                Add material
              </button>
            </div>
          </>
        )}
        {tab === 'url' && (
          <>
            <label className="field">
              <span>Address (the local server fetches a snapshot and records when)</span>
              <input
                className="input"
                data-testid="material-url"
                placeholder="https://…"
                value={url}
                onChange={(event) => setUrl(event.target.value)}
              />
            </label>
            <div className="actions">
              <button className="button" onClick={onClose}>
                Cancel
              </button>
              <button className="button primary" disabled={busy || !url.trim()} onClick={() => void fetchUrl()}>
                {busy ? 'Fetching…' : 'Fetch snapshot'}
              </button>
            </div>
          </>
        )}
        {tab === 'pdf' && (
          <>
            {!pdf && (
              <label className="field">
                <span>PDF file (read in this window; nothing is uploaded)</span>
                <input
                  type="file"
                  accept="application/pdf"
                  data-testid="material-pdf-file"
                  onChange={(event) => event.target.files?.[0] && void openPdf(event.target.files[0])}
                />
              </label>
            )}
            {busy && <p className="hint">Reading pages…</p>}
            {pdf && (
              <>
                <p className="hint">
                  Select a passage on the pages below, then add it: the material keeps its page numbers.
                </p>
                <div className="pdf-pages" ref={setPagesElement} data-testid="pdf-pages">
                  {Array.from({ length: pdf.document.numPages }, (_, index) => (
                    <PdfPageView
                      key={index + 1}
                      document={pdf.document}
                      number={index + 1}
                      width={PDF_PAGE_WIDTH}
                      aspect={pdf.aspect}
                      root={pagesElement}
                    />
                  ))}
                </div>
                <div className="actions" style={{ marginTop: 12 }}>
                  <button className="button" onClick={onClose}>
                    Cancel
                  </button>
                  <button
                    className="button"
                    data-testid="material-pdf-whole"
                    disabled={busy}
                    onClick={() => void addPdf(true)}
                  >
                    Add whole document
                  </button>
                  <button
                    className="button primary"
                    data-testid="material-pdf-selection"
                    onMouseDown={(event) => event.preventDefault()}
                    onClick={() => void addPdf(false)}
                  >
                    Add selection
                  </button>
                </div>
              </>
            )}
          </>
        )}
        {tab === 'image' && (
          <>
            <label className="field">
              <span>Image (stored once by its hash; sent as an image to models that take images)</span>
              <input
                type="file"
                accept="image/*"
                data-testid="material-image-file"
                onChange={(event) => event.target.files?.[0] && void addImage(event.target.files[0])}
              />
            </label>
            <div className="actions">
              <button className="button" onClick={onClose}>
                Cancel
              </button>
            </div>
          </>
        )}
      </div>
    </div>
  );
}
