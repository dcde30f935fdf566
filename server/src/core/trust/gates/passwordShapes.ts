// A password standing alone, for the team store: a token written the way password rules make
// people write them (letters of both cases, a digit and a symbol: `Gr4nite!river`, `Kimchi#7723`,
// `Summer2024!`), whatever words surround it ("ssh in as ops with Gr4nite!river", "het
// beheerderswachtwoord Tulpenbol!33"). Ordinary notes hold such tokens rarely, and in shapes the
// rule reads apart: an email address, a path or URL, code (`!isDone`, `a+b`, `obj.x`), a hashtag,
// an issue or PR reference (`Issue#42`), markdown, and a line that presents the token as an
// example or as a password a policy refuses ("passwords like Summer2024! are blocked").
import { mask } from './entropy.ts';
import { lineAround } from './findings.ts';
import { exampleOnLine } from './providerTokens.ts';

/** Runs of characters between blanks, quotes and brackets (matches never overlap: the scan is linear). */
const TOKEN = /[^\s"'`()[\]{}<>,;|]{8,}/g;
/** The symbols of a password (not the - _ . of names, the / of paths, the ' of prose, the + and = of base64 and settings). */
const SYMBOL = /[!#$%^&*?~@]/;
/** Words before `#` that make `Word#12` a reference to a record, not a password. */
const REFERENCE = /^(?:issues?|prs?|pull|bugs?|tickets?|story|task|case|items?|steps?|rooms?|builds?|runs?|jobs?|no|nr|num|number|version|release|sprint|epic|page|line|row|col|order|invoice|id|ch|chapter|section|part|slot|table|seat|gate|desk|floor|level|phase|round|week|day|team|group|rev|commit|change|mr|cl|ref)$/i;
/** What the line says of the token besides an example (exampleOnLine): a refused or banned password, a pattern. */
const DISOWNING_LINE =
  /\b(?:like|banned|blocked|rejected|refused|forbidden|not allowed|disallowed|blocklist|blacklist|denylist|policy|pattern|regex|format|weak|guessable|breached|pwned)\b/i;

/** Does `t` have a password's shape (see the header)? */
export function passwordShaped(t: string): boolean {
  if (!/\p{Ll}/u.test(t) || !/\p{Lu}/u.test(t) || !/\d/.test(t) || !SYMBOL.test(t)) return false;
  if (/^[#$%@!&*~+=]/.test(t)) return false; // a hashtag, a variable, a mention, a negation, a decorator
  if (/[=:]|\*\*/.test(t)) return false; // a setting (`KEY=value`, `-XX:+UseG1GC`), a masked value (`sk_live_****9xQa`)
  if (/@[\w-]+\.[A-Za-z]/.test(t) || /[\\/]/.test(t) || t.includes('://')) return false; // an email address, a path, a URL
  if (/\p{L}\.\p{L}/u.test(t) || /[!=+<>]=|\+\+|&&|\?\.|=>/.test(t)) return false; // a property path, a domain, an operator
  if (/^(?:[a-z][a-z0-9._-]*|[A-Z][a-z]+)@[\^~>=<]*v?\d+(?:\.\d+)*(?:-[\w.]+)?$/.test(t)) return false; // a package and its version (`Node@20`, `react@18.2.0`)
  if (/\*[-.]|[-.]\*/.test(t)) return false; // a glob (`s390x*-linux`, `CVE-2024-9681-*.patch`)
  // A symbol's version (`mach_print@GLIBC_2.21`, `fn_complete2@Base`): an identifier, then @ and a capitalised name.
  if (/^[\w.]+@@?[A-Z][A-Za-z]*(?:_[\d.]+)?$/.test(t) && (t.includes('_') || /@[A-Z]{2,}|@Base$/.test(t))) return false;
  const ref = /^(\p{L}+)#\d+$/u.exec(t);
  if (ref && REFERENCE.test(ref[1]!)) return false;
  return (t.match(/\p{L}/gu) ?? []).length >= 3;
}

/** The first password standing alone in `text`, masked, or null. */
export function loosePassword(text: string): string | null {
  for (const m of text.matchAll(TOKEN)) {
    if (m[0].length > 80) continue; // a URL, a blob: no password (and a regex anchored at $ is quadratic on a long run)
    const t = m[0].replace(/^[*_]+/, '').replace(/[*_.,:;]+$/, '');
    if (t.length < 8 || t.length > 64 || !passwordShaped(t)) continue;
    const start = m.index + m[0].indexOf(t);
    if (exampleOnLine(text, start, start + t.length) || DISOWNING_LINE.test(lineAround(text, start, start + t.length, 120))) continue;
    return mask(t, 1);
  }
  return null;
}
