import { plural } from '../../core/index.ts';
import { useEffect, useRef, useState } from 'react';
import type { ImportStatus } from '../../../protocol/index.ts';
import { describeError } from '../api/index.ts';
import { useWeftStore, useEscape } from '../kit/index.ts';
import { canvasBridge } from '../commands/index.ts';

const DOCUMENT_TYPES = '.md,.markdown,.html,.htm,.docx';
const POLL_MS = 250;

function megabytes(bytes: number): string {
  return (bytes / 1048576).toFixed(1);
}

/**
 * C34 in the app: a ChatGPT or Claude.ai `conversations.json` becomes one canvas per conversation (the server
 * streams it; progress is shown and it can be cancelled, keeping nothing), and a Markdown, HTML or DOCX file
 * becomes a material on the open canvas with its provenance.
 */
export function ImportDialog({ onClose }: { onClose: () => void }) {
  const store = useWeftStore();
  const [status, setStatus] = useState<ImportStatus | null>(null);
  const [busy, setBusy] = useState(false);
  const closed = useRef(false);
  const running = status?.state === 'running';
  useEscape(!running, onClose);
  useEffect(() => {
    // Set on every mount: StrictMode mounts, cleans up and mounts again, and the polling must run after that.
    closed.current = false;
    return () => {
      closed.current = true;
    };
  }, []);

  const fail = (error: unknown) => {
    const { code, message } = describeError(error);
    store.getState().toast('error', code, message);
  };

  const importConversations = async (file: File) => {
    setBusy(true);
    try {
      let current = await store.api.startImport(file, file.name);
      setStatus(current);
      while (current.state === 'running' && !closed.current) {
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
        current = await store.api.importStatus(current.importId);
        setStatus(current);
      }
      if (current.state === 'done') {
        const count = current.canvasIds.length;
        // What the import left out is said, not dropped silently (issue 29.2).
        const putAside = current.putAside ?? 0;
        const kept =
          putAside > 0
            ? ` ${plural(putAside, 'message')} you had put aside arrived archived (Memory → Put aside).`
            : '';
        store
          .getState()
          .toast('info', 'imported', `Imported ${plural(count, 'conversation')} from ${file.name}.${kept}`);
        const first = current.canvasIds[0];
        if (first) await store.getState().openCanvas(first);
        onClose();
      }
    } catch (error) {
      fail(error);
    } finally {
      setBusy(false);
    }
  };

  const importDocument = async (file: File) => {
    setBusy(true);
    try {
      const material = await store.api.readDocument(file, file.name);
      const before = new Set(store.getState().graph?.nodes.keys() ?? []);
      const applied = store.getState().apply({
        type: 'import-material',
        material: { kind: 'material', ...material, position: canvasBridge.newNodePosition() },
      });
      if (!applied) return;
      const created = [...(store.getState().graph?.nodes.keys() ?? [])].find((id) => !before.has(id));
      if (created) {
        store.getState().setSelection([created]);
        store.getState().focusNode(created);
        canvasBridge.ensureVisible(created);
      }
      onClose();
    } catch (error) {
      fail(error);
    } finally {
      setBusy(false);
    }
  };

  const cancel = async () => {
    if (!status) return;
    try {
      setStatus(await store.api.cancelImport(status.importId));
    } catch (error) {
      fail(error);
    }
  };

  const fraction = status && status.totalBytes > 0 ? Math.min(1, status.bytesRead / status.totalBytes) : 0;
  return (
    <div className="overlay" onClick={running ? undefined : onClose}>
      <div
        className="dialog"
        style={{ width: 520 }}
        role="dialog"
        aria-label="Import"
        data-testid="import-dialog"
        onClick={(event) => event.stopPropagation()}
      >
        <h2>Import</h2>
        <label className="field">
          <span>Past conversations: a ChatGPT or Claude.ai export’s conversations.json (one canvas each)</span>
          <input
            type="file"
            accept=".json,application/json"
            data-testid="import-conversations-file"
            disabled={busy}
            onChange={(event) => {
              const file = event.target.files?.[0];
              if (file) void importConversations(file);
            }}
          />
        </label>
        <label className="field">
          <span>A document as material on this canvas: Markdown, HTML or DOCX</span>
          <input
            type="file"
            accept={DOCUMENT_TYPES}
            data-testid="import-document-file"
            disabled={busy}
            onChange={(event) => {
              const file = event.target.files?.[0];
              if (file) void importDocument(file);
            }}
          />
        </label>
        {status && (
          <div className="hint" data-testid="import-status" aria-live="polite">
            {status.state === 'running' && (
              <>
                <progress max={1} value={fraction} style={{ width: '100%' }} />
                <div>
                  {status.phase === 'storing' ? 'Storing' : status.phase === 'uploading' ? 'Uploading' : 'Reading'}{' '}
                  {status.fileName}: {megabytes(status.bytesRead)} of {megabytes(status.totalBytes)} MB,{' '}
                  {status.conversations} conversations
                </div>
              </>
            )}
            {status.state === 'failed' && status.error && (
              <div className="hint" style={{ color: 'var(--danger, #c0392b)' }} data-testid="import-error">
                Refused, nothing was imported: {status.error.message}
              </div>
            )}
            {status.state === 'cancelled' && <div>Cancelled: nothing was imported.</div>}
          </div>
        )}
        <div className="actions">
          {running ? (
            <button className="button" data-testid="import-cancel" onClick={() => void cancel()}>
              Cancel import
            </button>
          ) : (
            <button className="button" onClick={onClose}>
              Close
            </button>
          )}
        </div>
      </div>
    </div>
  );
}
