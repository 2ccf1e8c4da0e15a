/**
 * `checkPromptInjection` of the json format (compat.md §2.1): a deterministic scan of the page text
 * for instructions aimed at a language model ("ignore the previous instructions", role markers, "you
 * are now …", requests to reveal the system prompt). When the page carries one, the page is not sent to
 * the model: the json format answers from what the page states (the no-model path) and says why in
 * `warning` and `metadata.promptInjection`. Without a model the scan is reported the same way, so the
 * caller learns the page is hostile before sending it to a model of its own.
 */

/** Patterns of text addressed to a model, each with a short name reported as the match. */
const PATTERNS: [string, RegExp][] = [
  ['ignore-instructions', /\b(?:ignore|disregard|forget|override)\s+(?:all\s+|any\s+|the\s+|your\s+|these\s+)*(?:previous|prior|above|earlier|preceding|system|original)\s+(?:instructions?|prompts?|rules|directions|context)\b/i],
  ['new-instructions', /\b(?:new|updated|real)\s+(?:system\s+)?instructions?\s*:/i],
  ['role-override', /\byou\s+are\s+now\s+(?:a|an)\s+(?:\w+\s+){0,3}(?:assistant|AI|model|bot|chatbot|persona)\b|\bfrom\s+now\s+on,?\s+you\s+(?:are|will|must)\b/i],
  ['reveal-prompt', /\b(?:reveal|print|repeat|show|output)\s+(?:your\s+(?:system\s+|initial\s+|hidden\s+)?|the\s+(?:system|hidden|initial)\s+)(?:prompt|instructions)\b/i],
  ['role-markers', /<\|(?:im_start|im_end|system|assistant|user)\|>|\[\/?INST\]|<<\/?SYS>>|^\s*(?:system|assistant)\s*:\s/im],
  ['do-anything-now', /\bDAN\b.{0,40}\bdo anything now\b|\bjailbreak(?:ed)?\s+mode\b/i],
];

/** What the scan found: the names of the matched patterns and a short excerpt of each. */
export interface InjectionScan {
  detected: boolean;
  matches: { pattern: string; excerpt: string }[];
}

/**
 * Scans page text for instructions aimed at a model.
 * @param text the page's markdown or text
 */
export function scanForInjection(text: string): InjectionScan {
  const matches: InjectionScan['matches'] = [];
  for (const [pattern, re] of PATTERNS) {
    const m = re.exec(text);
    if (!m) continue;
    const start = Math.max(0, m.index - 40);
    matches.push({ pattern, excerpt: text.slice(start, m.index + m[0].length + 40).replace(/\s+/g, ' ').trim() });
  }
  return { detected: matches.length > 0, matches };
}
