/**
 * Shared types of PII redaction (compat.md §2.2 `redactPII`): the entity classes, what a detector
 * reports, and the resolved options. Detectors live one per class in ./detectors.
 */

/** The entity classes a caller may name in `redactPII.entities` (compat.md §2.2). */
export const PII_ENTITIES = ['PERSON', 'EMAIL', 'PHONE', 'LOCATION', 'FINANCIAL', 'SECRET'] as const;
export type PiiEntity = (typeof PII_ENTITIES)[number];

/**
 * `fast`: patterns only; `accurate` (default): patterns plus validation (checksums, phone metadata,
 * context cues); `aggressive`: lower thresholds (possible instead of valid phone numbers, single
 * names after a cue, any high-entropy string in code).
 */
export type PiiMode = 'fast' | 'accurate' | 'aggressive';

/** `tag` → `<EMAIL>`, `mask` → one `*` per character, `remove` → nothing. */
export type ReplaceStyle = 'tag' | 'mask' | 'remove';

/** One detected span of `text`: `[start, end)` in UTF-16 code units. */
export interface Finding {
  type: PiiEntity;
  start: number;
  end: number;
}

/** Extra inputs of a detection run. */
export interface DetectOptions {
  /** Use the NLP name finder (PERSON); off for HTML, where it is slow and sees markup. Default true. */
  nlp?: boolean;
  /** Names already found in another field of the same document (PERSON redacts them here too). */
  names?: readonly string[];
}

/** A detector of one entity class: finds spans in plain or markdown text. Pure and synchronous. */
export interface Detector {
  type: PiiEntity;
  detect(text: string, mode: PiiMode, options?: DetectOptions): Finding[];
}

/** `redactPII` after defaults. */
export interface RedactOptions {
  mode: PiiMode;
  entities: PiiEntity[];
  replaceStyle: ReplaceStyle;
}

/**
 * Resolves the request's `redactPII` (true or `{mode, entities, replaceStyle}`) to options, or
 * undefined when redaction is off (absent, false, or an empty entity list).
 */
export function resolveRedactOptions(option: unknown): RedactOptions | undefined {
  if (!option) return undefined;
  const o = (typeof option === 'object' ? option : {}) as { mode?: PiiMode; entities?: PiiEntity[]; replaceStyle?: ReplaceStyle };
  const entities = o.entities ?? [...PII_ENTITIES];
  if (entities.length === 0) return undefined;
  return { mode: o.mode ?? 'accurate', entities, replaceStyle: o.replaceStyle ?? 'tag' };
}
