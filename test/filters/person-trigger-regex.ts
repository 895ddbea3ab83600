/**
 * The person-name detector's trigger tests as they were before the last-character check: each
 * regex run on the 24 characters before the word. Kept as the reference `strongTriggerBefore`
 * and `weakTriggerBefore` must equal (person-triggers.test.ts).
 */
const STRONG_TRIGGER =
  /(?:\bmy\s+name\s+is|\bmy\s+name's|\bname\s*:|\bnamed|\bcall\s+me|\bsigned|\bsincerely,|\bregards,|\bdear|\battn:?|\battention:|\bfrom:|\bcc:|\bauthor:|\bassignee:|\bcontact\s+person:)\s*$/i;
const WEAK_TRIGGER =
  /(?:\bhi|\bhello|\bhey|\bthanks,?|\bthank\s+you,?|\bcheers,|\bbest,|\bask|\btell|\bping|\bemail|\bcontact|\bthank|\bmeet|\bmet\s+with|\bspoke\s+(?:with|to)|\btalk\s+to|\bthis\s+is|\bi'm|\bi\s+am|\bcc)\s*$/i;

const before = (text: string, start: number): string => text.slice(Math.max(0, start - 24), start);

export const referenceStrong = (text: string, start: number): boolean => STRONG_TRIGGER.test(before(text, start));
export const referenceWeak = (text: string, start: number): boolean => WEAK_TRIGGER.test(before(text, start));
