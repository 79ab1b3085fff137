// src/ui/panels: node panel with the will-send preview, Replay, event log, settings, material import.
export { NodePanel } from './NodePanel.tsx';
export { WillSendPreview } from './WillSendPreview.tsx';
export { ReplayChip, ReplayDialog } from './Replay.tsx';
export { RerunUnder } from './RerunUnder.tsx';
export { EventLogView } from './EventLogView.tsx';
export { ResultsView } from './ResultsView.tsx';
export { SettingsView } from './SettingsView.tsx';
export { MaterialDialog } from './MaterialDialog.tsx';
export { downloadText, safeFileName } from './download.ts';
