import { useEffect } from 'react';
import { ErrorBoundary } from '../app/ErrorBoundary.tsx';
import './atlas.css';
import { AtlasSync } from './AtlasSync.tsx';
import { AtlasView } from './AtlasView.tsx';
import { useAtlas } from './use-atlas.ts';
import { WhyPanel } from './WhyPanel.tsx';

/** The Atlas and Why views over the workspace, plus the live-follow listener (always mounted). */
export function AtlasLayer() {
  const open = useAtlas((state) => state.open);
  // While the Atlas or Why covers the workspace, the other tabs show as not selected.
  useEffect(() => {
    document.body.classList.toggle('atlas-open', open !== null);
  }, [open]);
  return (
    <>
      <AtlasSync />
      {open && (
        <div className="atlas-layer">
          <ErrorBoundary area={open}>{open === 'atlas' ? <AtlasView /> : <WhyPanel />}</ErrorBoundary>
        </div>
      )}
    </>
  );
}
