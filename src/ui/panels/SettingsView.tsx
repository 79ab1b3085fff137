import { useEffect, useRef, useState } from 'react';
import type { ProviderKind, ProviderUpdate, SessionArchiveSettings } from '../../../protocol/index.ts';
import { useWeft } from '../kit/index.ts';
import { WebSearchSettings } from './WebSearchSettings.tsx';
import { McpSettings } from './McpSettings.tsx';
import { SessionRootsSettings } from './SessionRootsSettings.tsx';
import { TeamIndexSettings } from './TeamIndexSettings.tsx';
import { SessionArchiveHealth } from './SessionArchiveHealth.tsx';
import { KINDS, ProviderRow, rowFields, type ProviderDraft } from './ProviderRow.tsx';

const DEFAULT_ARCHIVE: SessionArchiveSettings = {
  enabled: true,
  runners: { 'claude-code': true, codex: true, pi: true },
};
const ARCHIVE_RUNNERS: { runner: keyof SessionArchiveSettings['runners']; label: string }[] = [
  { runner: 'claude-code', label: 'Claude Code' },
  { runner: 'codex', label: 'Codex' },
  { runner: 'pi', label: 'Pi' },
];

export function SettingsView() {
  const settings = useWeft((state) => state.settings);
  const models = useWeft((state) => state.models);
  const saveSettings = useWeft((state) => state.saveSettings);
  const loadSettings = useWeft((state) => state.loadSettings);
  const [drafts, setDrafts] = useState<ProviderDraft[]>([]);
  // Saved providers the person removed; sent as `removeProviders` on Save.
  const [removed, setRemoved] = useState<string[]>([]);
  // What requests go to now: the default is shown as a model, never a silent "whatever is configured".
  const effectiveDefault = useWeft((state) => state.defaultModelId);
  const [judge, setJudge] = useState('');
  const [plaqueWriter, setPlaqueWriter] = useState<'model' | 'rule'>('rule');
  const [autoAcceptFacts, setAutoAcceptFacts] = useState(false);
  const [autoAcceptSentences, setAutoAcceptSentences] = useState(true);
  // Issue 31: dollars per ask of a model set; empty means no cap.
  const [setCap, setSetCap] = useState('');
  const [defaultModel, setDefaultModel] = useState('');
  const [backup, setBackup] = useState('');
  const [archive, setArchive] = useState<SessionArchiveSettings>(DEFAULT_ARCHIVE);
  const [newKind, setNewKind] = useState<ProviderKind>(KINDS[0]!.kind);
  const [saved, setSaved] = useState(false);

  useEffect(() => void loadSettings(), [loadSettings]);
  useEffect(() => {
    if (!settings) return;
    // Offered model ids are not part of GET /api/settings; the model list shows what each provider offers.
    const offered = (id: string) =>
      models
        .filter((model) => model.provider === id)
        .map((model) => model.id.slice(id.length + 1))
        .join(', ');
    setDrafts(
      settings.providers.map((provider) => {
        const draft: ProviderDraft = {
          id: provider.id,
          kind: provider.kind,
          baseUrl: provider.baseUrl ?? '',
          apiKey: '',
          models: provider.kind === 'openai-compatible' ? offered(provider.id) : '',
          enabled: provider.enabled,
          hasKey: provider.hasKey,
          savedBaseUrl: provider.baseUrl,
          isNew: false,
          loaded: null,
        };
        return { ...draft, loaded: rowFields(draft) };
      }),
    );
    setJudge(settings.judgeModelId ?? '');
    setPlaqueWriter(settings.plaqueWriter ?? 'rule');
    setAutoAcceptFacts(settings.memoryAutoAccept?.profileFacts ?? false);
    setAutoAcceptSentences(settings.memoryAutoAccept?.dossierSentences ?? true);
    setSetCap(settings.setCapUsd === null || settings.setCapUsd === undefined ? '' : String(settings.setCapUsd));
    setDefaultModel(settings.defaultModelId ?? '');
    setRemoved([]);
    setBackup(settings.backupFolder ?? '');
    setArchive(settings.sessionArchive ?? DEFAULT_ARCHIVE);
  }, [settings, models]);

  // The web search and team index cards have their own routes; the page's one Save saves them too.
  const saveWebSearch = useRef<(() => Promise<boolean>) | null>(null);
  const saveTeamIndex = useRef<(() => Promise<boolean>) | null>(null);
  const save = async () => {
    const teamIndexSaved = (await saveTeamIndex.current?.()) ?? true;
    const webSearchSaved = ((await saveWebSearch.current?.()) ?? true) && teamIndexSaved;
    const providers: ProviderUpdate[] = drafts
      .filter((draft) => draft.id.trim())
      .map((draft) => ({
        id: draft.id.trim(),
        kind: draft.kind,
        enabled: draft.enabled,
        ...(draft.baseUrl.trim() ? { baseUrl: draft.baseUrl.trim() } : {}),
        ...(draft.apiKey ? { apiKey: draft.apiKey } : {}),
        ...(draft.models.trim()
          ? {
              models: draft.models
                .split(',')
                .map((model) => model.trim())
                .filter(Boolean),
            }
          : {}),
      }));
    const ok = await saveSettings({
      providers,
      judgeModelId: judge || null,
      // Always an explicit choice: saving with a new provider keeps the model requests go to now.
      defaultModelId: defaultModel || effectiveDefault || null,
      ...(removed.length ? { removeProviders: removed } : {}),
      backupFolder: backup.trim() || null,
      sessionArchive: archive,
      plaqueWriter,
      memoryAutoAccept: { profileFacts: autoAcceptFacts, dossierSentences: autoAcceptSentences },
      setCapUsd: setCap.trim() && Number(setCap) >= 0 ? Number(setCap) : null,
    });
    setSaved(ok && webSearchSaved);
    if (ok) setTimeout(() => setSaved(false), 3000);
  };

  return (
    <div className="page" data-testid="settings">
      <div className="page-inner" style={{ maxWidth: 860 }}>
        <h1>Settings</h1>
        <p className="subtitle">Keys are stored on this machine only and are never shown again, exported or logged.</p>
        <div className="card-panel">
          <h2>Model providers</h2>
          {drafts.length === 0 && (
            <p className="hint">
              No provider configured: the offline receipt model answers every request with a receipt of what it
              received.
            </p>
          )}
          {drafts.map((draft, index) => (
            <ProviderRow
              key={index}
              draft={draft}
              onChange={(next) => setDrafts(drafts.map((candidate, at) => (at === index ? next : candidate)))}
              onRemove={() => {
                setDrafts(drafts.filter((_, at) => at !== index));
                if (!draft.isNew) setRemoved([...removed, draft.id]);
              }}
            />
          ))}
          <div className="toolbar-row" style={{ marginTop: 12, marginBottom: 0 }}>
            <select
              className="select"
              data-testid="new-provider-kind"
              value={newKind}
              onChange={(event) => setNewKind(event.target.value as ProviderKind)}
            >
              {KINDS.map((entry) => (
                <option key={entry.kind} value={entry.kind}>
                  {entry.label}
                </option>
              ))}
            </select>
            <button
              className="button"
              data-testid="add-provider"
              onClick={() =>
                setDrafts([
                  ...drafts,
                  {
                    id: newKind === 'openai-compatible' ? 'local' : newKind,
                    kind: newKind,
                    baseUrl: '',
                    apiKey: '',
                    models: '',
                    enabled: true,
                    hasKey: false,
                    savedBaseUrl: null,
                    isNew: true,
                    loaded: null,
                  },
                ])
              }
            >
              Add provider
            </button>
          </div>
        </div>
        <div className="card-panel">
          <h2>Models</h2>
          <label className="field">
            <span>Default chat model</span>
            <select
              className="select"
              data-testid="default-model"
              value={defaultModel || effectiveDefault}
              onChange={(event) => setDefaultModel(event.target.value)}
            >
              {models.map((model) => (
                <option key={model.id} value={model.id}>
                  {model.label}
                </option>
              ))}
            </select>
            <span className="hint">A provider you add never becomes the default by itself: choose its model here.</span>
          </label>
          <label className="field">
            <span>Decision model (judge for stale marks and memory) — optional; rules decide when none answers</span>
            <select
              className="select"
              data-testid="judge-model"
              value={judge}
              onChange={(event) => setJudge(event.target.value)}
            >
              <option value="">None (rule fallback)</option>
              {models
                .filter((model) => !model.offline)
                .map((model) => (
                  <option key={model.id} value={model.id}>
                    {model.label}
                  </option>
                ))}
            </select>
          </label>
          <label className="field">
            <span>Plaques (the one-line takeaway on each answer, shown when zoomed out)</span>
            <select
              className="select"
              data-testid="plaque-writer"
              value={plaqueWriter}
              onChange={(event) => setPlaqueWriter(event.target.value === 'model' ? 'model' : 'rule')}
            >
              <option value="rule">Rule: the answer's first sentences (no model call)</option>
              <option value="model">
                The answering model (the decision model for agents) — one short call per answer
              </option>
            </select>
          </label>
          <label className="field">
            <span>Most one “Ask several…” may cost, in US dollars (empty: no cap; over it, nothing is sent)</span>
            <input
              className="input"
              type="number"
              min={0}
              step={0.01}
              data-testid="set-cap"
              value={setCap}
              onChange={(event) => setSetCap(event.target.value)}
            />
          </label>
          <label className="field" style={{ flexDirection: 'row', gap: 8, alignItems: 'center' }}>
            <input
              type="checkbox"
              data-testid="memory-auto-accept"
              checked={autoAcceptFacts}
              onChange={(event) => setAutoAcceptFacts(event.target.checked)}
            />
            <span>
              Accept facts about me automatically (off: each fact proposed from your questions waits in the Inbox on the
              Memory page, and nothing reaches a request until you accept it)
            </span>
          </label>
          <label className="field" style={{ flexDirection: 'row', gap: 8, alignItems: 'center' }}>
            <input
              type="checkbox"
              data-testid="memory-auto-accept-sentences"
              checked={autoAcceptSentences}
              onChange={(event) => setAutoAcceptSentences(event.target.checked)}
            />
            <span>
              Accept a dossier&apos;s new sentences automatically (each cites the turns it rests on; off: they wait in
              the Inbox and reach no dossier, recall or request until you accept them)
            </span>
          </label>
          <p className="hint" data-testid="memory-privacy">
            Memory: after each question you ask, the judge is sent that exchange (your question, your notes, the answer)
            and your profile's current lines — only to the decision model chosen here, and nowhere else. With no
            decision model, rules on this machine decide and nothing leaves it. The profile is stored in
            WEFT_HOME/memory/ (readable by you only). Separately, the profile's current lines ride every ordinary ask as
            the [Memory] block, to whichever chat model that question is sent to (never on an agent run). To stop that
            for one canvas, untick “Send the [Memory] profile block with this canvas's requests” in a question's
            Will-send preview.
          </p>
        </div>
        <div className="card-panel">
          <h2>Backup</h2>
          <label className="field">
            <span>Backup folder (each canvas is written there as &lt;name&gt;.weft.json)</span>
            <input
              className="input"
              data-testid="backup-folder"
              placeholder="/home/you/Documents/weft-backup"
              value={backup}
              onChange={(event) => setBackup(event.target.value)}
            />
          </label>
        </div>
        <WebSearchSettings saveRef={saveWebSearch} />
        <McpSettings />
        <SessionRootsSettings />
        <TeamIndexSettings saveRef={saveTeamIndex} />
        <div className="card-panel">
          <h2>Session archive</h2>
          <label className="field" style={{ flexDirection: 'row', gap: 8, alignItems: 'center' }}>
            <input
              type="checkbox"
              data-testid="archive-enabled"
              checked={archive.enabled}
              onChange={(event) => setArchive({ ...archive, enabled: event.target.checked })}
            />
            <span>
              Keep a compressed copy of every session file Weft indexes (in $WEFT_HOME/archive), so a session its agent
              deletes (Claude Code removes transcripts after 30 days) stays browsable and answerable
            </span>
          </label>
          {ARCHIVE_RUNNERS.map((entry) => (
            <label key={entry.runner} className="field" style={{ flexDirection: 'row', gap: 8, alignItems: 'center' }}>
              <input
                type="checkbox"
                data-testid={`archive-${entry.runner}`}
                disabled={!archive.enabled}
                checked={archive.runners[entry.runner]}
                onChange={(event) =>
                  setArchive({ ...archive, runners: { ...archive.runners, [entry.runner]: event.target.checked } })
                }
              />
              <span>{entry.label}</span>
            </label>
          ))}
          <p className="hint">
            Switched off, a runner&apos;s copies are dropped at the next index, and with them its sessions whose file is
            gone. <code>weft purge --archive</code> drops every copy.
          </p>
          <SessionArchiveHealth />
        </div>
        {/* The page's one Save, kept in view at the bottom beside whichever card is being edited. */}
        <div className="button-row settings-save-bar">
          <button className="button primary" data-testid="save-settings" onClick={() => void save()}>
            Save settings
          </button>
          {saved && (
            <span className="key-saved" data-testid="settings-saved">
              Saved
            </span>
          )}
        </div>
      </div>
    </div>
  );
}
