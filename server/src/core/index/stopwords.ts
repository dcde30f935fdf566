// Query stopwords. They are removed from queries only: documents keep every word for positions
// and lengths, but postings skip stopwords because no query can ever ask for one (see index).
// The list is English function words plus the filler of questions asked to an assistant
// ("how do I", "what is the", "please tell me"), so a question made only of filler matches nothing.

const WORDS = `
a about above after again against all almost also am an and any anyone anything are aren't around as at
be because been before being below between both but by
can can't cannot could couldn't
did didn't do does doesn't doing don't down during
each either else ever every
few for from further
get gets getting give go goes going got
had hadn't has hasn't have haven't having he her here hers herself him himself his how however
i i'd i'll i'm i've if in into is isn't it it's its itself
just
know
let let's like
may me might mine more most much must my myself
need needs no nor not now
of off often on once only or other others our ours ourselves out over own
please put
quite
rather really
said same say says see shall she should shouldn't so some something sometimes still such sure
tell than that that's the their theirs them themselves then there there's these they they're thing things
this those though through to too
under until up upon us
very
want was wasn't way we we'd we'll we're we've were weren't what what's whatever when where which while who
whom whose why will with within without won't would wouldn't
yes yet you you'd you'll you're you've your yours yourself yourselves
`;

// The tokenizer drops apostrophes (don't -> dont), so contractions are listed folded. A folded
// form that is also a content word (i'd -> id, we'll -> well, she'll -> shell) is left out.
const FOLDED_AWAY = new Set(['id', 'ill', 'well', 'wed', 'shell', 'hell', 'shed', 'lets', 'wont', 'cant']);

/** Lowercase words, contractions without their apostrophe. */
export const STOPWORDS: ReadonlySet<string> = new Set(
  WORDS.split(/\s+/).flatMap((w) => {
    if (w === '') return [];
    if (!w.includes("'")) return [w];
    const folded = w.replace(/'/g, '');
    return FOLDED_AWAY.has(folded) ? [] : [folded];
  }),
);

export function isStopword(lowerWord: string): boolean {
  return STOPWORDS.has(lowerWord);
}
