import { useWeft } from '../kit/index.ts';

/** The image an image material was made from, shown in its panel (the card shows only a thumbnail). */
export function MaterialImage({ attachmentHash, fileName }: { attachmentHash: string; fileName: string }) {
  const attachment = useWeft((state) => state.graph?.attachments.get(attachmentHash));
  if (!attachment) return <div className="hint">The image {fileName} is not stored on this canvas.</div>;
  return (
    <img
      className="material-image"
      data-testid="material-image"
      alt={fileName}
      src={`data:${attachment.mediaType};base64,${attachment.dataBase64}`}
    />
  );
}
