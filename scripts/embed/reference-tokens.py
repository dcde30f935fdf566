# Writes server/test/embed/fixtures/wordpiece-reference.json: token ids of tricky strings by the
# reference tokenizer (Hugging Face `tokenizers`, pinned below) from the model's tokenizer.json,
# which server/test/embed/wordpiece.test.ts compares the TypeScript tokenizer with.
#   python3 -m venv /tmp/tok && /tmp/tok/bin/pip install tokenizers==0.21.1
#   /tmp/tok/bin/python scripts/embed/reference-tokens.py /tmp/cairn-models/all-minilm-l6-v2-q-tokenizer.json
import json, sys
from tokenizers import Tokenizer

STRINGS = [
    "The billing service sends invoices as PDF attachments by email on the first day of each month",
    "On the 1st of every month, billing emails customers their invoice as an attached PDF",
    "Lark API responses are cached in Redis for five minutes",
    "getUserById() returns null when the user's session expired",
    "snake_case_identifier and kebab-case-name and PascalCaseName",
    "src/core/index/vectors.ts:123 throws ENOENT",
    "Café naïve résumé Ångström façade coöperate",
    "ÉCOLE ÜBER straße İstanbul",
    "日本語のテキストと中文混合 text",
    "emoji 🚀 deploys 🎉 and ✅ checks",
    "tabs\tand\nnewlines\r\nand  double  spaces",
    "zero\u200bwidth\u200djoiner and soft\u00adhyphen",
    "control\u0007bell and \u0000 null and \ufffd replacement",
    "https://example.com/path?query=1&x=y#frag",
    "k8s oauth2 s3 ipv6 utf-8 x86_64 arm64",
    "$HOME ~/.config/cairn/config.toml --dry-run -v",
    "don't won't it's we'd y'all",
    "“curly quotes” and ‘single’ — em dash – en dash …",
    "1,234.56 €12 £3 ¥4 ±5 ×6 ÷7 ½",
    "supercalifragilisticexpialidocious antidisestablishmentarianism",
    "a" * 120,
    "Why do we avoid ORMs?",
    "what did we settle on for the logging library",
    "didn't I say I dislike tabs",
    "Привет мир and Γειά σου",
    "مرحبا بالعالم",
    "한국어 텍스트",
    "",
    "   ",
    "[CLS] [SEP] [UNK] [PAD] [MASK]",
    "##hash ##tags #channel @mention",
    "e.g. i.e. etc. vs. Dr. Mr.",
    "C++ C# F# .NET Node.js",
    "PostgreSQL's JSONB vs MongoDB's BSON",
    "TODO(alice): refactor useEffect hooks",
    "\u00a0non-breaking\u2003em space\u3000ideographic space",
    "ﬁ ligature and ℌ fraktur and ① circled",
    "x" * 101 + " ok",
]

tok = Tokenizer.from_file(sys.argv[1])
tok.no_padding()
tok.no_truncation()
out = [{"text": s, "ids": tok.encode(s).ids} for s in STRINGS]
open("server/test/embed/fixtures/wordpiece-reference.json", "w").write("[\n" + ",\n".join(json.dumps(o, ensure_ascii=False) for o in out) + "\n]\n")
print(len(out), "strings")
