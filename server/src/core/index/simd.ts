// WebAssembly SIMD kernels for the vector index's approximate search (vectors.ts) and the
// built-in embedder, with the module assembled here byte by byte (no toolchain, no binary file):
// about 1.3 KB. Five kernels (hamming has a second body specialised for two chunks, chosen by
// simdKernels()):
//
//   hamming(codes, q, n, chunks, dist, hist): for each of n rows of `chunks` x 128-bit sign
//     codes at `codes`, the Hamming distance to the query code at `q` (i8x16.popcnt), stored as
//     u16 in dist[row]; hist[d] (i32) counts the rows at each distance.
//   dots16(q, data, dim, rows, m, out): the same with the query quantised to int16 (i16 x dim at
//     `q`), as i32 at out[i] (i32x4.dot_i16x8_s over 16 dims a step: ~8x fewer instructions). The
//     vector index ranks candidates with it and recomputes the few it keeps with `dots`.
//   collect(dist, n, from, span, cand) -> m: the rows whose u16 distance d has from <= d <=
//     from + span, in order, written to cand (i32); eight distances tested per SIMD step.
//   dots(q, data, dim, rows, m, out): for each of m row indices at `rows` (i32), the dot product
//     of the query (f64 x dim at `q`) with the row's int8 vector at data + row x dim, as f64 at
//     out[i]. Products of an f64 and an int8 are exact and summed in f64, as the JS path does
//     (only the order of the additions differs: ~1e-16).
//   accum(acc, table, dim, rows, weights, n): acc (f32 x dim) += weights[i] x table row rows[i]
//     (int8 x dim at table + rows[i] x dim) for i < n, in order, in f32 (the built-in embedder's
//     sum of word rows: 16 dims a step).
//
// Every pointer is a byte offset in the memory the instance is given (imported as env.mem).
// `dim` must be a multiple of 8, and of 16 for dots16 and accum. When WebAssembly or its SIMD is
// missing, `simdKernels()` returns null and the caller keeps its JavaScript loops (same results).

const u = (n: number): number[] => {
  // unsigned LEB128
  const out: number[] = [];
  do {
    let b = n & 0x7f;
    n >>>= 7;
    if (n !== 0) b |= 0x80;
    out.push(b);
  } while (n !== 0);
  return out;
};
const s = (n: number): number[] => {
  // signed LEB128 (small constants)
  const out: number[] = [];
  for (;;) {
    const b = n & 0x7f;
    n >>= 7;
    if ((n === 0 && (b & 0x40) === 0) || (n === -1 && (b & 0x40) !== 0)) {
      out.push(b);
      return out;
    }
    out.push(b | 0x80);
  }
};
const vec = (bytes: number[]): number[] => [...u(bytes.length), ...bytes];
const section = (id: number, body: number[]): number[] => [id, ...vec(body)];

// opcodes
const I32 = 0x7f;
const V128 = 0x7b;
const get = (i: number) => [0x20, ...u(i)];
const set = (i: number) => [0x21, ...u(i)];
const tee = (i: number) => [0x22, ...u(i)];
const i32c = (n: number) => [0x41, ...s(n)];
const ADD = 0x6a;
const MUL = 0x6c;
const SHL = 0x74;
const LT_U = 0x49;
const EQZ = 0x45;
const simd = (op: number, ...imm: number[]) => [0xfd, ...u(op), ...imm];
const mem = (align: number, offset = 0) => [...u(align), ...u(offset)];
const block = (body: number[]) => [0x02, 0x40, ...body, 0x0b];
const loop = (body: number[]) => [0x03, 0x40, ...body, 0x0b];
const brIf = (depth: number) => [0x0d, ...u(depth)];
const br = (depth: number) => [0x0c, ...u(depth)];
/** `for (; local < limit; local++) body` with the exit test first. */
const forLt = (i: number, limit: number[], body: number[]) =>
  block(loop([...get(i), ...limit, LT_U, EQZ, ...brIf(1), ...body, ...get(i), ...i32c(1), ADD, ...set(i), ...br(0)]));

const V_LOAD = 0x00;
const V_LOAD8X8_S = 0x01;
const V_CONST = 0x0c;
const SHUFFLE = 0x0d;
const XOR = 0x51;
const POPCNT = 0x62;
const EXTADD_I8_U = 0x7d;
const EXTADD_I16_U = 0x7f;
const I16_ADD = 0x8e;
const I8_ADD = 0x6e;
const I32_EXTRACT = 0x1b;
const EXT_LOW_S = 0xa7;
const EXT_HIGH_S = 0xa8;
const F64_ADD = 0xf0;
const F64_MUL = 0xf2;
const F64_EXTRACT = 0x21;
const CONVERT_LOW = 0xfe;
const ZERO = simd(V_CONST, ...new Array<number>(16).fill(0));
const I16_EXT_LOW_I8_S = 0x87;
const I16_EXT_HIGH_I8_S = 0x88;
const I32_DOT_I16 = 0xba;
const I32X4_ADD = 0xae;
const I16_SPLAT = 0x10;
const I16_SUB = 0x91;
const I16_LE_U = 0x34;
const ANY_TRUE = 0x53;
const SUB = 0x6b;
const LE_U = 0x4d;
const ifThen = (body: number[]) => [0x04, 0x40, ...body, 0x0b];

function hammingBody(): number[] {
  // params: 0 codes, 1 q, 2 n, 3 chunks, 4 dist, 5 hist; locals: 6 row, 7 k, 8 p, 9 d, 10 acc (v128)
  const [codes, q, n, chunks, dist, hist, row, k, p, d, acc] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
  const lane = (l: number) => [...get(acc), ...simd(EXTADD_I16_U), ...simd(I32_EXTRACT, l)];
  return [
    ...get(codes), ...set(p),
    ...forLt(row, get(n), [
      ...ZERO, ...set(acc),
      ...i32c(0), ...set(k),
      ...forLt(k, get(chunks), [
        ...get(acc),
        ...get(p), ...simd(V_LOAD, ...mem(0)),
        ...get(q), ...get(k), ...i32c(4), SHL, ADD, ...simd(V_LOAD, ...mem(0)),
        ...simd(XOR), ...simd(POPCNT), ...simd(EXTADD_I8_U), ...simd(I16_ADD), ...set(acc),
        ...get(p), ...i32c(16), ADD, ...set(p),
      ]),
      ...lane(0), ...lane(1), ADD, ...lane(2), ADD, ...lane(3), ADD, ...set(d),
      // dist[row] = d
      ...get(dist), ...get(row), ...i32c(1), SHL, ADD, ...get(d), 0x3b, ...mem(1),
      // hist[d]++
      ...get(hist), ...get(d), ...i32c(2), SHL, ADD, ...tee(k),
      ...get(k), 0x28, ...mem(2), ...i32c(1), ADD, 0x36, ...mem(2),
    ]),
  ];
}

/** hamming for chunks = 2 (256-bit codes, the built-in's), the query held in two v128 locals. */
function hamming2Body(): number[] {
  // params: 0 codes, 1 q, 2 n, 3 chunks (unused), 4 dist, 5 hist; locals: 6 row, 7 p, 8 d, 9 h, 10 q0, 11 q1, 12 t (v128)
  const [codes, q, n, , dist, hist, row, p, d, h, q0, q1, t] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];
  const lane = (l: number) => [...get(t), ...simd(I32_EXTRACT, l)];
  return [
    ...get(codes), ...set(p),
    ...get(q), ...simd(V_LOAD, ...mem(0)), ...set(q0),
    ...get(q), ...simd(V_LOAD, ...mem(0, 16)), ...set(q1),
    ...forLt(row, get(n), [
      ...get(p), ...simd(V_LOAD, ...mem(0)), ...get(q0), ...simd(XOR), ...simd(POPCNT),
      ...get(p), ...simd(V_LOAD, ...mem(0, 16)), ...get(q1), ...simd(XOR), ...simd(POPCNT),
      ...simd(I8_ADD), ...simd(EXTADD_I8_U), ...simd(EXTADD_I16_U), ...set(t),
      ...lane(0), ...lane(1), ADD, ...lane(2), ADD, ...lane(3), ADD, ...set(d),
      ...get(dist), ...get(row), ...i32c(1), SHL, ADD, ...get(d), 0x3b, ...mem(1),
      ...get(hist), ...get(d), ...i32c(2), SHL, ADD, ...tee(h),
      ...get(h), 0x28, ...mem(2), ...i32c(1), ADD, 0x36, ...mem(2),
      ...get(p), ...i32c(32), ADD, ...set(p),
    ]),
  ];
}

function dotsBody(): number[] {
  // params: 0 q, 1 data, 2 dim, 3 rows, 4 m, 5 out; locals: 6 i, 7 j, 8 base, 9 qp, 10 acc, 11 v, 12 w (v128)
  const [q, data, dim, rows, m, out, i, j, base, qp, acc, v, w] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];
  const HIGH = [8, 9, 10, 11, 12, 13, 14, 15, 8, 9, 10, 11, 12, 13, 14, 15];
  // acc += convert_low(x) * q[qp..qp+2]; qp += 16
  const madd = (x: number[]) => [
    ...get(acc), ...x, ...simd(CONVERT_LOW), ...get(qp), ...simd(V_LOAD, ...mem(0)), ...simd(F64_MUL), ...simd(F64_ADD), ...set(acc),
    ...get(qp), ...i32c(16), ADD, ...set(qp),
  ];
  const four = (src: number) => [...madd(get(src)), ...madd([...get(src), ...get(src), ...simd(SHUFFLE, ...HIGH)])];
  return [
    ...forLt(i, get(m), [
      // base = data + rows[i] * dim
      ...get(data), ...get(rows), ...get(i), ...i32c(2), SHL, ADD, 0x28, ...mem(2), ...get(dim), MUL, ADD, ...set(base),
      ...ZERO, ...set(acc),
      ...get(q), ...set(qp),
      ...i32c(0), ...set(j),
      ...block(loop([
        ...get(j), ...get(dim), LT_U, EQZ, ...brIf(1),
        ...get(base), ...get(j), ADD, ...simd(V_LOAD8X8_S, ...mem(0)), ...tee(v), ...simd(EXT_LOW_S), ...set(w),
        ...four(w),
        ...get(v), ...simd(EXT_HIGH_S), ...set(w),
        ...four(w),
        ...get(j), ...i32c(8), ADD, ...set(j),
        ...br(0),
      ])),
      // out[i] = acc[0] + acc[1]
      ...get(out), ...get(i), ...i32c(3), SHL, ADD,
      ...get(acc), ...simd(F64_EXTRACT, 0), ...get(acc), ...simd(F64_EXTRACT, 1), 0xa0,
      0x39, ...mem(3),
    ]),
  ];
}

function dots16Body(): number[] {
  // params: 0 q, 1 data, 2 dim, 3 rows, 4 m, 5 out; locals: 6 i, 7 j, 8 base, 9 qp, 10 acc, 11 v (v128)
  const [q, data, dim, rows, m, out, i, j, base, qp, acc, v] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11];
  const lane = (l: number) => [...get(acc), ...simd(I32_EXTRACT, l)];
  return [
    ...forLt(i, get(m), [
      ...get(data), ...get(rows), ...get(i), ...i32c(2), SHL, ADD, 0x28, ...mem(2), ...get(dim), MUL, ADD, ...set(base),
      ...ZERO, ...set(acc),
      ...get(q), ...set(qp),
      ...i32c(0), ...set(j),
      ...block(loop([
        ...get(j), ...get(dim), LT_U, EQZ, ...brIf(1),
        // 16 int8 of the row -> two i16x8, each dotted with 8 i16 of the query into i32x4
        ...get(base), ...get(j), ADD, ...simd(V_LOAD, ...mem(0)), ...set(v),
        ...get(acc),
        ...get(v), ...simd(I16_EXT_LOW_I8_S), ...get(qp), ...simd(V_LOAD, ...mem(0)), ...simd(I32_DOT_I16), ...simd(I32X4_ADD),
        ...get(v), ...simd(I16_EXT_HIGH_I8_S), ...get(qp), ...simd(V_LOAD, ...mem(0, 16)), ...simd(I32_DOT_I16), ...simd(I32X4_ADD),
        ...set(acc),
        ...get(qp), ...i32c(32), ADD, ...set(qp),
        ...get(j), ...i32c(16), ADD, ...set(j),
        ...br(0),
      ])),
      // out[i] = the four lanes' sum
      ...get(out), ...get(i), ...i32c(2), SHL, ADD,
      ...lane(0), ...lane(1), ADD, ...lane(2), ADD, ...lane(3), ADD,
      0x36, ...mem(2),
    ]),
  ];
}

const F32_SPLAT = 0x13;
const F32_ADD = 0xe4;
const F32_MUL = 0xe6;
const F32_CONVERT_I32_S = 0xfa;
const V_STORE = 0x0b;

function accumBody(): number[] {
  // params: 0 acc, 1 table, 2 dim, 3 rows, 4 weights, 5 n; locals: 6 i, 7 j, 8 base, 9 p (i32), 10 w, 11 v, 12 h (v128)
  const [acc, table, dim, rows, weights, n, i, j, base, p, w, v, h] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];
  // acc[p + off .. +4] += convert(x) * w, x an i32x4 of the row
  const madd = (x: number[], off: number) => [
    ...get(p), ...get(p), ...simd(V_LOAD, ...mem(0, off)),
    ...x, ...simd(F32_CONVERT_I32_S), ...get(w), ...simd(F32_MUL), ...simd(F32_ADD),
    ...simd(V_STORE, ...mem(0, off)),
  ];
  return [
    ...forLt(i, get(n), [
      // base = table + rows[i] * dim; w = splat(weights[i])
      ...get(table), ...get(rows), ...get(i), ...i32c(2), SHL, ADD, 0x28, ...mem(2), ...get(dim), MUL, ADD, ...set(base),
      ...get(weights), ...get(i), ...i32c(2), SHL, ADD, 0x2a, ...mem(2), ...simd(F32_SPLAT), ...set(w),
      ...i32c(0), ...set(j),
      ...block(loop([
        ...get(j), ...get(dim), LT_U, EQZ, ...brIf(1),
        ...get(base), ...get(j), ADD, ...simd(V_LOAD, ...mem(0)), ...set(v),
        // p = acc + j * 4
        ...get(acc), ...get(j), ...i32c(2), SHL, ADD, ...set(p),
        ...get(v), ...simd(I16_EXT_LOW_I8_S), ...set(h),
        ...madd([...get(h), ...simd(EXT_LOW_S)], 0),
        ...madd([...get(h), ...simd(EXT_HIGH_S)], 16),
        ...get(v), ...simd(I16_EXT_HIGH_I8_S), ...set(h),
        ...madd([...get(h), ...simd(EXT_LOW_S)], 32),
        ...madd([...get(h), ...simd(EXT_HIGH_S)], 48),
        ...get(j), ...i32c(16), ADD, ...set(j),
        ...br(0),
      ])),
    ]),
  ];
}

function collectBody(): number[] {
  // params: 0 dist, 1 n, 2 from, 3 span, 4 cand; locals: 5 r, 6 m, 7 j, 8 d, 9 row (i32), 10 vf, 11 vs (v128)
  const [dist, n, from, span, cand, r, m, j, d, row, vf, vs] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11];
  return [
    ...get(from), ...simd(I16_SPLAT), ...set(vf),
    ...get(span), ...simd(I16_SPLAT), ...set(vs),
    ...block(loop([
      ...get(r), ...get(n), LT_U, EQZ, ...brIf(1),
      // any of dist[r..r+8) in range? (u16 lanes: (d - from) mod 2^16 <= span)
      ...get(dist), ...get(r), ...i32c(1), SHL, ADD, ...simd(V_LOAD, ...mem(0)),
      ...get(vf), ...simd(I16_SUB), ...get(vs), ...simd(I16_LE_U), ...simd(ANY_TRUE),
      ...ifThen([
        ...i32c(0), ...set(j),
        ...block(loop([
          ...get(j), ...i32c(8), LT_U, EQZ, ...brIf(1),
          ...get(r), ...get(j), ADD, ...tee(row), ...get(n), LT_U,
          ...ifThen([
            ...get(dist), ...get(row), ...i32c(1), SHL, ADD, 0x2f, ...mem(1), ...set(d),
            ...get(d), ...get(from), SUB, ...get(span), LE_U,
            ...ifThen([
              ...get(cand), ...get(m), ...i32c(2), SHL, ADD, ...get(row), 0x36, ...mem(2),
              ...get(m), ...i32c(1), ADD, ...set(m),
            ]),
          ]),
          ...get(j), ...i32c(1), ADD, ...set(j),
          ...br(0),
        ])),
      ]),
      ...get(r), ...i32c(8), ADD, ...set(r),
      ...br(0),
    ])),
    ...get(m),
  ];
}

function moduleBytes(): Uint8Array {
  const type6 = [0x60, ...vec([I32, I32, I32, I32, I32, I32]), ...vec([])];
  const type5r = [0x60, ...vec([I32, I32, I32, I32, I32]), ...vec([I32])];
  const fn = (locals: number[][], body: number[]) => vec([...u(locals.length), ...locals.flat(), ...body, 0x0b]);
  const bytes = [
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    ...section(1, [...u(2), ...type6, ...type5r]),
    // imports: env.mem (memory, min 1 page)
    ...section(2, [...u(1), ...vec([...'env'].map((c) => c.charCodeAt(0))), ...vec([...'mem'].map((c) => c.charCodeAt(0))), 0x02, 0x00, ...u(1)]),
    ...section(3, [...u(6), 0, 0, 0, 0, 1, 0]),
    ...section(7, [
      ...u(6),
      ...vec([...'hamming'].map((c) => c.charCodeAt(0))), 0x00, 0,
      ...vec([...'dots'].map((c) => c.charCodeAt(0))), 0x00, 1,
      ...vec([...'hamming2'].map((c) => c.charCodeAt(0))), 0x00, 2,
      ...vec([...'dots16'].map((c) => c.charCodeAt(0))), 0x00, 3,
      ...vec([...'collect'].map((c) => c.charCodeAt(0))), 0x00, 4,
      ...vec([...'accum'].map((c) => c.charCodeAt(0))), 0x00, 5,
    ]),
    ...section(10, [
      ...u(6),
      ...fn([[4, I32], [1, V128]], hammingBody()),
      ...fn([[4, I32], [3, V128]], dotsBody()),
      ...fn([[4, I32], [3, V128]], hamming2Body()),
      ...fn([[4, I32], [2, V128]], dots16Body()),
      ...fn([[5, I32], [2, V128]], collectBody()),
      ...fn([[4, I32], [3, V128]], accumBody()),
    ]),
  ];
  return Uint8Array.from(bytes);
}

/** The few WebAssembly APIs used here (the project's lib settings do not declare them). */
interface WasmMemory {
  readonly buffer: ArrayBuffer;
}
interface WasmApi {
  validate(bytes: Uint8Array): boolean;
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: Record<string, unknown> };
  Memory: new (desc: { initial: number }) => WasmMemory;
}
const wasm = (globalThis as unknown as { WebAssembly?: WasmApi }).WebAssembly;

export interface SimdKernels {
  memory: WasmMemory;
  hamming(codes: number, q: number, n: number, chunks: number, dist: number, hist: number): void;
  dots(q: number, data: number, dim: number, rows: number, m: number, out: number): void;
  /** `dim` must be a multiple of 16 */
  dots16(q: number, data: number, dim: number, rows: number, m: number, out: number): void;
  /** `dist` may be read up to 7 entries past n (they are never selected) */
  collect(dist: number, n: number, from: number, span: number, cand: number): number;
  /** `dim` must be a multiple of 16 */
  accum(acc: number, table: number, dim: number, rows: number, weights: number, n: number): void;
}

let compiled: object | null | undefined;

/** A fresh instance over its own memory of at least `bytes` (null: no WebAssembly SIMD here). */
export function simdKernels(bytes: number): SimdKernels | null {
  if (compiled === undefined) {
    try {
      const b = moduleBytes();
      compiled = wasm && wasm.validate(b) ? new wasm.Module(b) : null;
    } catch {
      compiled = null;
    }
  }
  if (!wasm || compiled === null || process.env.CAIRN_NO_SIMD === '1') return null;
  const memory = new wasm.Memory({ initial: Math.max(1, Math.ceil(bytes / 65536)) });
  const inst = new wasm.Instance(compiled, { env: { mem: memory } });
  const ex = inst.exports as unknown as Omit<SimdKernels, 'memory'> & { hamming2: SimdKernels['hamming'] };
  const general = ex.hamming;
  const two = ex.hamming2;
  return {
    memory,
    hamming: (codes, q, n, chunks, dist, hist) => (chunks === 2 ? two(codes, q, n, chunks, dist, hist) : general(codes, q, n, chunks, dist, hist)),
    dots: ex.dots,
    dots16: ex.dots16,
    collect: ex.collect,
    accum: ex.accum,
  };
}
