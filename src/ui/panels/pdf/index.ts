// src/ui/panels/pdf: the PDF import view (rendered pages with a selectable text layer) and selection → pages.
export { PdfPageView, type PdfPageViewProps } from './PdfPageView.tsx';
export {
  pageLabel,
  readSelectionParts,
  selectionPages,
  selectionText,
  type PageSelectionPart,
} from './pdf-selection.ts';
