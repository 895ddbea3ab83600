import type { BuiltinSlug, Filter } from './types.js';
import { addressFilter } from './builtins/address.js';
import { creditCardFilter } from './builtins/credit-card.js';
import { emailFilter } from './builtins/email.js';
import { ipAddressFilter } from './builtins/ip-address.js';
import { personNameFilter } from './builtins/person-name.js';
import { phoneFilter } from './builtins/phone.js';
import { promptInjectionFilter } from './builtins/prompt-injection.js';
import { ssnFilter } from './builtins/ssn.js';

/** Every builtin detector by slug. Detectors are stateless singletons compiled at load. */
export const BUILTIN_FILTERS: Readonly<Record<BuiltinSlug, Filter>> = Object.freeze({
  email: emailFilter,
  phone: phoneFilter,
  ssn: ssnFilter,
  'credit-card': creditCardFilter,
  'ip-address': ipAddressFilter,
  'person-name': personNameFilter,
  address: addressFilter,
  'regex-prompt-injection': promptInjectionFilter,
});

export function builtinFilter(slug: BuiltinSlug): Filter {
  return BUILTIN_FILTERS[slug];
}
