// Plain-Node validator for corpus.json. Usage: node check.mjs
import { readFileSync } from "node:fs";

const MIN_CREDENTIAL = 110;
const MIN_ORDINARY = 320;
const MIN_HARD_NEGATIVE = 110;

const errors = [];
let data;
try {
  data = JSON.parse(readFileSync(new URL("./corpus.json", import.meta.url), "utf8"));
} catch (e) {
  console.error("FAIL: cannot read/parse corpus.json: " + e.message);
  process.exit(1);
}
if (!Array.isArray(data)) {
  console.error("FAIL: corpus.json must be a JSON array");
  process.exit(1);
}

const seen = new Map();
let credential = 0, ordinary = 0, hard = 0;
data.forEach((it, i) => {
  const where = `item ${i}`;
  if (it === null || typeof it !== "object" || Array.isArray(it)) { errors.push(`${where}: not an object`); return; }
  const keys = Object.keys(it).sort().join(",");
  if (keys !== "label,note,text") errors.push(`${where}: fields must be exactly text,label,note (got ${keys})`);
  for (const f of ["text", "label", "note"]) {
    if (typeof it[f] !== "string" || it[f].trim() === "") errors.push(`${where}: ${f} must be a non-empty string`);
  }
  if (typeof it.text === "string") {
    if (seen.has(it.text)) errors.push(`${where}: duplicate text (same as item ${seen.get(it.text)})`);
    else seen.set(it.text, i);
  }
  if (it.label === "credential") credential++;
  else if (it.label === "ordinary") ordinary++;
  else errors.push(`${where}: label must be "credential" or "ordinary" (got ${JSON.stringify(it.label)})`);
  if (typeof it.note === "string" && /^hard negative/i.test(it.note)) {
    if (!it.note.startsWith("hard negative")) errors.push(`${where}: hard-negative note must start with lowercase "hard negative"`);
    if (it.label !== "ordinary") errors.push(`${where}: hard negative must be labelled ordinary`);
    else hard++;
  }
});

if (credential < MIN_CREDENTIAL) errors.push(`credential count ${credential} < ${MIN_CREDENTIAL}`);
if (ordinary < MIN_ORDINARY) errors.push(`ordinary count ${ordinary} < ${MIN_ORDINARY}`);
if (hard < MIN_HARD_NEGATIVE) errors.push(`hard negative count ${hard} < ${MIN_HARD_NEGATIVE}`);

// Labels must be mixed, not grouped: no run of 25+ identical labels.
let run = 1, maxRun = data.length ? 1 : 0;
for (let i = 1; i < data.length; i++) {
  run = data[i].label === data[i - 1].label ? run + 1 : 1;
  maxRun = Math.max(maxRun, run);
}
if (maxRun >= 25) errors.push(`labels look grouped (run of ${maxRun} identical labels); shuffle the items`);

if (errors.length) {
  for (const e of errors.slice(0, 50)) console.error("FAIL: " + e);
  if (errors.length > 50) console.error(`... and ${errors.length - 50} more`);
  process.exit(1);
}
console.log(`OK: ${data.length} items: credential=${credential} ordinary=${ordinary} (hard negatives=${hard})`);
