import type { ProviderKind } from '../../../protocol/index.ts';
import { keyOriginWarning } from '../store/index.ts';
import { TestConnection } from './TestConnection.tsx';

export const KINDS: { kind: ProviderKind; label: string; needsBaseUrl: boolean }[] = [
  { kind: 'openai', label: 'OpenAI', needsBaseUrl: false },
  { kind: 'anthropic', label: 'Anthropic', needsBaseUrl: false },
  { kind: 'openrouter', label: 'OpenRouter', needsBaseUrl: false },
  { kind: 'openai-compatible', label: 'OpenAI-compatible (LM Studio, vLLM, llama.cpp…)', needsBaseUrl: true },
  { kind: 'ollama', label: 'Ollama', needsBaseUrl: true },
];

export interface ProviderDraft {
  id: string;
  kind: ProviderKind;
  baseUrl: string;
  apiKey: string;
  models: string;
  enabled: boolean;
  hasKey: boolean;
  /** The base URL the saved key was entered for (as stored); the key is bound to its origin. */
  savedBaseUrl: string | null;
  isNew: boolean;
  /** The row's fields as last loaded from the server (`rowFields`); null for a row not saved yet. */
  loaded: string | null;
}

/** What a person can change on a row, as one comparable string: a row whose fields differ has unsaved edits. */
export function rowFields(draft: ProviderDraft): string {
  return JSON.stringify([draft.kind, draft.baseUrl, draft.apiKey, draft.models, draft.enabled]);
}

/** One provider row in Settings: its kind, address, key, models, a connection test and Remove. */
export function ProviderRow({
  draft,
  onChange,
  onRemove,
}: {
  draft: ProviderDraft;
  onChange: (next: ProviderDraft) => void;
  onRemove: () => void;
}) {
  const kind = KINDS.find((entry) => entry.kind === draft.kind)!;
  const originWarning = keyOriginWarning(draft);
  const unsaved = draft.isNew || rowFields(draft) !== draft.loaded;
  return (
    <div className="provider-row" data-testid="provider-row" data-provider-id={draft.id}>
      <div className="provider-row-head" style={{ gridColumn: '1 / -1' }}>
        <span className="badge model" data-testid="provider-kind">
          {kind.label}
        </span>
        {draft.isNew && <span className="hint">not saved yet</span>}
        {unsaved && !draft.isNew && (
          <span className="hint" data-testid="provider-unsaved">
            unsaved changes
          </span>
        )}
        <span className="spacer" />
        {/* The server tests what it stored: a row with unsaved edits would be tested as it was. */}
        <TestConnection providerId={draft.id} saved={!unsaved} />
        <button className="button small danger" data-testid="provider-remove" onClick={onRemove}>
          Remove
        </button>
      </div>
      <label className="field" style={{ margin: 0 }}>
        <span>Id</span>
        <input
          className="input"
          data-testid="provider-id"
          value={draft.id}
          disabled={!draft.isNew}
          onChange={(event) => onChange({ ...draft, id: event.target.value })}
        />
      </label>
      <label className="field" style={{ margin: 0 }}>
        <span>{kind.needsBaseUrl ? 'Base URL' : 'Kind'}</span>
        {kind.needsBaseUrl ? (
          <input
            className="input"
            data-testid="provider-base-url"
            placeholder="http://127.0.0.1:1234/v1"
            value={draft.baseUrl}
            onChange={(event) => onChange({ ...draft, baseUrl: event.target.value })}
          />
        ) : (
          <input className="input" value={kind.label} disabled />
        )}
      </label>
      <label className="field" style={{ margin: 0 }}>
        <span>
          API key{' '}
          {draft.hasKey && (
            <span className="key-saved" data-testid="key-saved">
              · key saved
            </span>
          )}
        </span>
        <input
          className="input"
          type="password"
          autoComplete="off"
          data-testid="provider-key"
          placeholder={draft.hasKey ? 'Enter a new key to replace it' : 'Paste a key (stored on this machine only)'}
          value={draft.apiKey}
          onChange={(event) => onChange({ ...draft, apiKey: event.target.value })}
        />
      </label>
      <label className="switch" style={{ paddingBottom: 6 }}>
        <input
          type="checkbox"
          checked={draft.enabled}
          onChange={(event) => onChange({ ...draft, enabled: event.target.checked })}
        />{' '}
        Enabled
      </label>
      {originWarning && (
        <p className="hint" data-testid="key-origin-warning" role="status" style={{ gridColumn: '1 / -1', margin: 0 }}>
          {originWarning}
        </p>
      )}
      {draft.kind === 'openai-compatible' && (
        <label className="field" style={{ gridColumn: '2 / 4', margin: 0 }}>
          <span>Model ids offered (comma separated)</span>
          <input
            className="input"
            data-testid="provider-models"
            placeholder="llama-3.1-8b-instruct"
            value={draft.models}
            onChange={(event) => onChange({ ...draft, models: event.target.value })}
          />
        </label>
      )}
    </div>
  );
}
