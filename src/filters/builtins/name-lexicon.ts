import { LEX_CLASSES, type LexClass } from './name-lexicon-classes.js';
import { LEXICON_DATA } from './name-lexicon-data.js';

/**
 * Word lists for the person-name detector. The bulk comes from compromise's own lexicon
 * (≈3,000 first names tagged MaleName/FemaleName/FirstName, ≈900 LastName, plus Person
 * entries); the supplements below add common names it lacks (South/East Asian, African,
 * Arabic, Slavic, Iberian) and the first names that are also ordinary English words.
 * The lexicon is read from a generated snapshot (name-lexicon-data.ts, checked against the
 * installed compromise by a test), so compromise itself (tens of MB resident) is loaded only when a
 * sentence really needs its parser.
 */
export type NameClass = 'first' | 'ambiguous' | 'last' | 'person' | 'common' | 'unknown';

const SUPPLEMENT_FIRST = `priya aarti ananya anjali arjun rohan rahul vikram sanjay deepak ravi suresh ramesh
anil sunil amit ankit neha pooja kavya divya lakshmi meera nisha rajesh ashok vijay arun kiran
wei jie ming xiao li na hui yan fang jing lei jun hao yu zhen mei ling qiang bo tao
hiroshi takeshi kenji haruto yuki yuto sota ren aiko sakura yui hana emi akiko keiko naoko
minjun seojun jiwoo seoyeon jiho hyun jimin soyeon eunji
chidi chiamaka ngozi emeka obinna oluwaseun olumide tunde ade ayodele kwame kofi ama akua
abena yaw thabo sipho themba lerato zanele wanjiru wanjiku njeri kamau otieno achieng amara
omar tariq yusuf youssef khalid karim rania layla leila yasmin noor nour zainab aisha amina
hassan hussein ibrahim mustafa farah samira mehmet emre elif zeynep ayse
olga svetlana natasha dmitri dmitry sergei vladimir igor anya katya irina oksana tatiana
piotr pawel krzysztof agnieszka katarzyna malgorzata tomasz jakub zofia
joao joão gonçalo inês beatriz matías mateo santiago valentina camila sofía lucía alejandro
thiago rafael gustavo bruno leonardo isabela giulia alessandro lorenzo francesca chiara
sven lars henrik ingrid astrid freya bjorn björn anders magnus linnea maja
siobhan niamh aoife ciaran cian oisin saoirse eoin padraig
lukas jonas leon finn mia emma lena hannah felix maximilian jürgen jurgen klaus dieter
ines ivan ana marta elena pablo jorge javier diego carmen rosa lucia`;

const SUPPLEMENT_LAST = `müller mueller schmidt schneider fischer weber meyer wagner becker schulz hoffmann
nakamura tanaka suzuki watanabe takahashi kobayashi yamamoto ito sato kato yoshida yamada
singh kumar sharma gupta patel reddy iyer nair rao mehta shah joshi chopra kapoor malhotra
zhang wang liu chen yang huang zhao zhou wu xu sun ma zhu hu guo lin he gao luo zheng
nguyen tran pham hoang huynh vo dang bui
kim park choi jung kang cho yoon jang lim
okafor okonkwo adeyemi adebayo okoro eze nwosu mensah asante osei boateng otieno kamau
mwangi ochieng abubakar bello
rossi russo ferrari esposito bianchi romano colombo ricci marino greco bruno gallo
fernández fernandez lópez lopez martínez martinez sánchez sanchez pérez perez gómez gomez
rodríguez rodriguez gonzález gonzalez hernández hernandez ramírez ramirez torres flores
silva santos oliveira souza costa pereira almeida carvalho ribeiro
kowalski nowak wiśniewski wisniewski wójcik wojcik kowalczyk kamiński kaminski lewandowski
ivanov petrov smirnov popov sokolov kuznetsov volkov novak horvat
dubois durand lefebvre moreau laurent girard bonnet dupont lambert fontaine rousseau
jansen janssen bakker visser smit meijer mulder bos vos
johansson andersson karlsson nilsson eriksson larsson olsen hansen nielsen jensen
murphy kelly sullivan walsh byrne ryan o'brien obrien o'connor oconnor mcdonald macdonald
hashemi hosseini ahmadi rezaei yilmaz kaya demir şahin sahin çelik celik`;

/** First names that are also everyday English words: a name only with a surname or title. */
const AMBIGUOUS = `will may bill june april august hope faith rose jack summer art chase sue pat frank
joy dawn iris lily ruby amber ray miles gene guy rich don penny holly ivy grace lance mark
grant drew nick rob skip pierce spike buck chuck foster mack peg stew bob wade sky page king
young brown white black green price cook baker carol sunny dale glen cliff rod max eve robin
heather violet jasmine crystal destiny harmony angel paris brooke misty autumn an bo gay
major minor rusty sandy stormy willow river rain storm star sage hunter taylor mason carter
cooper parker austin jordan dallas houston sydney victoria virginia georgia florence
charity patience prudence constance mercy melody bud buddy chip colt flint forrest heath
jay jewel kit lane lark marsh norm oak pearl reed rich rocky rowan royal ruth shad
tanner terry tex trinity true val vale warren wren dusty cash dean dick doc earl ernest
fox gale gay gil gus hal hank herb homer jimmy lou lad lee lynn mae marina mercedes mo
pete phoenix rey roman sal sherry sonny tia tony toby ty van vern`;

const toSet = (words: string): Set<string> => new Set(words.split(/\s+/).filter((w) => w !== ''));

/**
 * The separate word tables the classes are decided from (compromise's snapshot, the supplements),
 * as they were read before the one-table build: the test of that build reads them as its reference.
 */
export interface NameTables {
  first: Set<string>;
  last: Set<string>;
  ambig: Set<string>;
  lex: Map<string, LexClass>;
}

/** Calls `visit` with every entry of compromise's snapshot and its tag. */
function eachLexiconEntry(visit: (word: string, cls: LexClass) => void): void {
  for (const cls of LEX_CLASSES) {
    for (const word of LEXICON_DATA[cls].split(/[|\n]/)) if (word !== '') visit(word, cls);
  }
}

export function nameTables(): NameTables {
  const lex = new Map<string, LexClass>();
  eachLexiconEntry((word, cls) => lex.set(word, cls));
  return { first: toSet(SUPPLEMENT_FIRST), last: toSet(SUPPLEMENT_LAST), ambig: toSet(AMBIGUOUS), lex };
}

/** The class of a compromise entry that no supplement lists. */
const OF_TAG: Readonly<Record<LexClass, NameClass>> = { F: 'first', L: 'last', P: 'person', C: 'common' };

/**
 * Every listed word (and two-word phrase) with its class, decided once: a word of a call costs one
 * lookup in one table instead of up to four.
 */
let classes: Map<string, NameClass> | null = null;
/** compromise's entries tagged as a person (`bill gates`; a listed first name may be one too). */
let persons: Set<string> = new Set();

/**
 * Builds the word classes (a few MB of heap) once. Not on import: a server whose guardrails use no
 * person-name filter never needs them. `personNameFilter` calls this when a filter set that holds
 * it is compiled, so no call waits for it; any other first use builds it then.
 */
export function loadNameLexicon(): Map<string, NameClass> {
  if (classes !== null) return classes;
  // The rules, in the order they apply to a word: an ambiguous word is `ambiguous`; a supplement
  // name is `first` (else `last`) unless compromise lists it as an ordinary word (`he`, `sun`:
  // then `ambiguous`, a name only in context); any other entry has its tag's class.
  const out = new Map<string, NameClass>();
  const people = new Set<string>();
  eachLexiconEntry((word, cls) => {
    out.set(word, OF_TAG[cls]);
    if (cls === 'P') people.add(word);
  });
  const first = toSet(SUPPLEMENT_FIRST);
  for (const word of new Set([...first, ...toSet(SUPPLEMENT_LAST)])) {
    out.set(word, out.get(word) === 'common' ? 'ambiguous' : first.has(word) ? 'first' : 'last');
  }
  for (const word of toSet(AMBIGUOUS)) out.set(word, 'ambiguous');
  persons = people;
  classes = out;
  return out;
}

/** Class of one lower-cased word. */
export function classifyWord(lower: string): NameClass {
  const cls = (classes ?? loadNameLexicon()).get(lower);
  if (cls !== undefined) return cls;
  // Unlisted: a hyphenated word whose first part is a first name (`john-xqzzy`) counts as one.
  const dash = lower.indexOf('-');
  if (dash > 0) return classifyWord(lower.slice(0, dash)) === 'first' ? 'first' : 'unknown';
  return 'unknown';
}

/** A multi-word lexicon entry tagged as a person (`bill gates`, `theresa may`). */
export function isKnownPerson(lowerPhrase: string): boolean {
  if (classes === null) loadNameLexicon();
  return persons.has(lowerPhrase);
}
