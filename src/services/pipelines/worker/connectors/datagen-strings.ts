/**
 * datagen's string strategies (Feldera's DatagenStrategy names, which its generator draws from the Rust
 * `fake` crate in English), drawn here from @faker-js/faker (a well-kept faker with the same families of
 * data: lorem, names, internet, company, currency, finance, address, barcode, files), seeded from the
 * record's own SmallRng so that a seed gives the same strings. `min`/`max` is the field's range: the
 * number of words, sentences or paragraphs, or a password's length. The faker (its English locale, ~70 ms
 * to load) is loaded only by a pipeline whose datagen uses one of these strategies (loadStringFaker).
 */
import type { Faker } from '@faker-js/faker';
import type { SmallRng } from './small-rng.js';

type Make = (f: Faker, count: () => number, min: number, max: number) => string;

// lists the faker has no function for (fake's English data)
const COMPANY_SUFFIXES = ['Inc.', 'and Sons', 'LLC', 'Group'];
const CITY_PREFIXES = ['North', 'East', 'West', 'South', 'New', 'Lake', 'Port', 'Fort'];
const CITY_SUFFIXES = ['town', 'ton', 'land', 'ville', 'berg', 'burgh', 'borough', 'bury', 'view', 'port', 'mouth', 'stad', 'furt', 'chester', 'haven', 'side', 'shire'];
const STREET_SUFFIXES = ['Alley', 'Avenue', 'Boulevard', 'Court', 'Drive', 'Lane', 'Place', 'Road', 'Street', 'Way'];
const TIME_ZONES = [
  'UTC',
  'Europe/London',
  'Europe/Paris',
  'Europe/Berlin',
  'America/New_York',
  'America/Chicago',
  'America/Denver',
  'America/Los_Angeles',
  'Asia/Tokyo',
  'Asia/Kolkata',
  'Australia/Sydney',
];
const USER_AGENTS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_2) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.2 Safari/605.1.15',
  'Mozilla/5.0 (X11; Linux x86_64; rv:121.0) Gecko/20100101 Firefox/121.0',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148',
];
const RFC_STATUS = ['100', '101', '200', '201', '202', '204', '301', '302', '304', '400', '401', '403', '404', '409', '418', '429', '500', '501', '502', '503'];
const VALID_STATUS = ['200', '201', '202', '204', '206', '301', '302', '304', '307', '308', '400', '401', '403', '404', '405', '409', '410', '422', '429', '500', '502', '503', '504'];

export const STRING_STRATEGIES: Record<string, Make> = {
  word: (f) => f.lorem.word(),
  words: (f, n) => f.lorem.words(n()),
  sentence: (f, n) => f.lorem.sentence(Math.max(1, n())),
  sentences: (f, n) => f.lorem.sentences(n(), ' '),
  paragraph: (f, n) => f.lorem.paragraph(Math.max(1, n())),
  paragraphs: (f, n) => f.lorem.paragraphs(n(), ' '),
  first_name: (f) => f.person.firstName(),
  last_name: (f) => f.person.lastName(),
  title: (f) => f.person.prefix(),
  suffix: (f) => f.person.suffix(),
  name: (f) => `${f.person.firstName()} ${f.person.lastName()}`,
  name_with_title: (f) => `${f.person.prefix()} ${f.person.firstName()} ${f.person.lastName()}`,
  domain_suffix: (f) => f.internet.domainSuffix(),
  email: (f) => f.internet.exampleEmail(),
  username: (f) => f.internet.username(),
  password: (f, _n, min, max) => f.internet.password({ length: f.number.int({ min, max: Math.max(min, max - 1) }) }),
  field: (f) => f.person.jobArea(),
  position: (f) => f.person.jobType(),
  seniority: (f) => f.person.jobDescriptor(),
  job_title: (f) => f.person.jobTitle(),
  ipv4: (f) => f.internet.ipv4(),
  ipv6: (f) => f.internet.ipv6(),
  ip: (f) => f.internet.ip(),
  mac_address: (f) => f.internet.mac(),
  user_agent: (f) => f.helpers.arrayElement(USER_AGENTS),
  rfc_status_code: (f) => f.helpers.arrayElement(RFC_STATUS),
  valid_status_code: (f) => f.helpers.arrayElement(VALID_STATUS),
  company_suffix: (f) => f.helpers.arrayElement(COMPANY_SUFFIXES),
  company_name: (f) => f.company.name(),
  buzzword: (f) => f.company.buzzAdjective(),
  buzzword_middle: (f) => f.company.catchPhraseDescriptor(),
  buzzword_tail: (f) => f.company.catchPhraseNoun(),
  catch_phrase: (f) => f.company.catchPhrase(),
  bs_verb: (f) => f.company.buzzVerb(),
  bs_adj: (f) => f.company.buzzAdjective(),
  bs_noun: (f) => f.company.buzzNoun(),
  bs: (f) => f.company.buzzPhrase(),
  profession: (f) => f.person.jobTitle(),
  industry: (f) => f.commerce.department(),
  currency_code: (f) => f.finance.currencyCode(),
  currency_name: (f) => f.finance.currencyName(),
  currency_symbol: (f) => f.finance.currencySymbol(),
  credit_card_number: (f) => f.finance.creditCardNumber(),
  city_prefix: (f) => f.helpers.arrayElement(CITY_PREFIXES),
  city_suffix: (f) => f.helpers.arrayElement(CITY_SUFFIXES),
  city_name: (f) => f.location.city(),
  country_name: (f) => f.location.country(),
  country_code: (f) => f.location.countryCode(),
  street_suffix: (f) => f.helpers.arrayElement(STREET_SUFFIXES),
  street_name: (f) => f.location.street(),
  time_zone: (f) => f.helpers.arrayElement(TIME_ZONES),
  state_name: (f) => f.location.state(),
  state_abbr: (f) => f.location.state({ abbreviated: true }),
  secondary_address_type: (f) => f.helpers.arrayElement(['Apt.', 'Suite']),
  secondary_address: (f) => f.location.secondaryAddress(),
  zip_code: (f) => f.location.zipCode(),
  post_code: (f) => f.location.zipCode(),
  building_number: (f) => f.location.buildingNumber(),
  latitude: (f) => String(f.location.latitude()),
  longitude: (f) => String(f.location.longitude()),
  isbn: (f) => f.commerce.isbn(f.datatype.boolean() ? 13 : 10),
  isbn13: (f) => f.commerce.isbn(13),
  isbn10: (f) => f.commerce.isbn(10),
  phone_number: (f) => f.phone.number(),
  cell_number: (f) => f.phone.number({ style: 'national' }),
  file_path: (f) => f.system.filePath(),
  file_name: (f) => f.system.fileName(),
  file_extension: (f) => f.system.fileExt(),
  dir_path: (f) => f.system.directoryPath(),
};

/** Makes strings by strategy; each call seeds the faker from the record's generator. */
export class StringFaker {
  constructor(private readonly faker: Faker) {}

  /** A string by `strategy` (a key of STRING_STRATEGIES); counts uniform in [min, max) from `rng`. */
  make(strategy: string, rng: SmallRng, min: number, max: number): string {
    this.faker.seed(rng.u32());
    return STRING_STRATEGIES[strategy]!(this.faker, () => rng.range(min, max), min, max);
  }
}

/** Loads the faker's English data (once). */
export async function loadStringFaker(): Promise<StringFaker> {
  const { faker } = await import('@faker-js/faker/locale/en');
  return new StringFaker(faker);
}
