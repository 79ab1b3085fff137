/**
 * A minimal valid PDF: one page per entry, each line drawn with Helvetica (not embedded),
 * with a correct xref table. Used to make fixtures without ghostscript.
 */
export function minimalPdf(pages: string[][]): Uint8Array {
  const escape = (text: string) => text.replace(/[\\()]/g, (character) => `\\${character}`);
  const objects: string[] = [];
  const pageCount = pages.length;
  // 1 catalog, 2 pages, 3 font, then per page: page object and content stream.
  objects.push('<< /Type /Catalog /Pages 2 0 R >>');
  const kids = pages.map((_, index) => `${4 + index * 2} 0 R`).join(' ');
  objects.push(`<< /Type /Pages /Kids [${kids}] /Count ${pageCount} >>`);
  objects.push('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>');
  pages.forEach((lines, index) => {
    const contentId = 5 + index * 2;
    objects.push(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${contentId} 0 R >>`,
    );
    const drawing = [
      'BT',
      '/F1 14 Tf',
      '16 TL',
      '72 720 Td',
      ...lines.map((line, lineIndex) => `${lineIndex === 0 ? '' : 'T* '}(${escape(line)}) Tj`),
      'ET',
    ].join('\n');
    objects.push(`<< /Length ${Buffer.byteLength(drawing, 'latin1')} >>\nstream\n${drawing}\nendstream`);
  });
  let output = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(Buffer.byteLength(output, 'latin1'));
    output += `${index + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xrefAt = Buffer.byteLength(output, 'latin1');
  output += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) output += `${String(offset).padStart(10, '0')} 00000 n \n`;
  output += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xrefAt}\n%%EOF\n`;
  return new Uint8Array(Buffer.from(output, 'latin1'));
}
