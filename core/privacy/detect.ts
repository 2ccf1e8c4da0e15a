/**
 * Runs the detectors of the requested entity classes over one text and resolves overlaps: where
 * spans of different classes overlap, the more specific class wins (SECRET, FINANCIAL, EMAIL, PHONE,
 * LOCATION, PERSON in that order); spans of one class merge.
 */
import type { DetectOptions, Detector, Finding, PiiEntity, PiiMode } from './types.ts';
import email from './detectors/email.ts';
import phone from './detectors/phone.ts';
import financial from './detectors/financial.ts';
import secret from './detectors/secret.ts';
import location from './detectors/location.ts';
import person from './detectors/person.ts';

/** Detectors in priority order (first wins an overlap). */
export const DETECTORS: Detector[] = [secret, financial, email, phone, location, person];

/**
 * Finds PII spans in `text`.
 * @returns non-overlapping findings sorted by start
 */
export function detectPII(text: string, mode: PiiMode, entities: readonly PiiEntity[], options?: DetectOptions): Finding[] {
  const kept: Finding[] = [];
  for (const d of DETECTORS) {
    if (!entities.includes(d.type)) continue;
    const found = d.detect(text, mode, options).sort((a, b) => a.start - b.start || b.end - a.end);
    for (const f of found) {
      if (f.end <= f.start) continue;
      const clash = kept.find((k) => f.start < k.end && k.start < f.end);
      if (!clash) kept.push({ ...f });
      else if (clash.type === f.type) {
        clash.start = Math.min(clash.start, f.start);
        clash.end = Math.max(clash.end, f.end);
      }
    }
  }
  return kept.sort((a, b) => a.start - b.start);
}
