/**
 * Which work keeps no data (issue 17 "zero data retention everywhere"): a request with
 * `zeroDataRetention`, and a `lockdown` request, which is handled the same way (its result is
 * returned once; no document, no readable scrape record, no URL in logs or activity).
 */

/** Whether work with these options must store no document and no URL. */
export function keepsNoData(options: { zeroDataRetention: boolean; lockdown?: boolean }): boolean {
  return options.zeroDataRetention || options.lockdown === true;
}
