/**
 * PDF detection by content: `%PDF-` within the first 1024 bytes (readers accept a header after some
 * junk). Servers often label PDFs `application/octet-stream`, and some label HTML error pages
 * `application/pdf`, so the bytes decide.
 */

/** Whether the bytes start (within 1024 bytes) with a PDF header. */
export function isPdf(bytes: Uint8Array): boolean {
  const end = Math.min(bytes.length - 5, 1024);
  for (let i = 0; i <= end; i++) {
    if (bytes[i] === 0x25 && bytes[i + 1] === 0x50 && bytes[i + 2] === 0x44 && bytes[i + 3] === 0x46 && bytes[i + 4] === 0x2d) return true;
  }
  return false;
}
