// The local transformer embedder's data file, server/dist/cairn-model.bin (made by
// scripts/embed/fetch-model.mjs from a pinned registry package): the ONNX model and its WordPiece
// vocabulary in one file, so that a model and a vocabulary of two different versions can never
// meet. Read by the embedding worker (localWorker.ts); checked whole (SHA-256) before use, so a
// truncated or altered file is an EmbedError naming the path, never wrong vectors.
//
// Layout (little-endian):
//   0   8 bytes  magic "CAIRNMDL"
//   8   u32      format version (1)
//   12  u32      byte length H of the JSON header
//   16  H bytes  header: { name, dim, maxTokens, pooling: "mean", lowercase, vocabBytes, onnxBytes, onnxSha256, source, licence }
//       vocabBytes  the vocabulary, UTF-8, tokens in id order joined by "\n"
//       onnxBytes   the ONNX model
//   end 32 bytes SHA-256 of every byte before it
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { EmbedError } from './embedder.ts';

export const MODEL_MAGIC = 'CAIRNMDL';
export const MODEL_FORMAT_VERSION = 1;

export interface ModelHeader {
  name: string;
  dim: number;
  maxTokens: number;
  pooling: 'mean';
  lowercase: boolean;
  vocabBytes: number;
  onnxBytes: number;
  onnxSha256: string;
  source: string;
  licence: string;
}

export interface ModelFile {
  header: ModelHeader;
  vocab: string[];
  onnx: Uint8Array;
  /** first 16 hex digits of the file's SHA-256: part of the embedder id, so a new model never reuses old vectors */
  digest: string;
}

/** The header alone (the embedder's id and dim without reading 23 MB); throws EmbedError naming `file`. */
export function readModelHeader(file: string, bytes?: Buffer): { header: ModelHeader; headerEnd: number } {
  let buf: Buffer;
  try {
    buf = bytes ?? readFileSync(file);
  } catch (err) {
    throw new EmbedError(`the embedding model ${file} cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  if (buf.length < 16 + 32 || buf.toString('latin1', 0, 8) !== MODEL_MAGIC) throw new EmbedError(`the embedding model ${file} is not a cairn model file`);
  const version = buf.readUInt32LE(8);
  if (version !== MODEL_FORMAT_VERSION) throw new EmbedError(`the embedding model ${file} has format version ${version}; this cairn reads version ${MODEL_FORMAT_VERSION}`);
  const h = buf.readUInt32LE(12);
  if (16 + h + 32 > buf.length) throw new EmbedError(`the embedding model ${file} is truncated`);
  let header: ModelHeader;
  try {
    header = JSON.parse(buf.toString('utf8', 16, 16 + h)) as ModelHeader;
  } catch {
    throw new EmbedError(`the embedding model ${file} is damaged (header)`);
  }
  if (!Number.isInteger(header.dim) || header.dim <= 0 || !Number.isInteger(header.maxTokens) || header.maxTokens < 8 || header.pooling !== 'mean') {
    throw new EmbedError(`the embedding model ${file} has a header this cairn does not understand`);
  }
  return { header, headerEnd: 16 + h };
}

/** The whole file, checked; throws EmbedError naming `file` when it is missing, truncated or altered. */
export function readModelFile(file: string): ModelFile {
  let buf: Buffer;
  try {
    buf = readFileSync(file);
  } catch (err) {
    throw new EmbedError(`the embedding model ${file} cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  const { header, headerEnd } = readModelHeader(file, buf);
  const end = headerEnd + header.vocabBytes + header.onnxBytes;
  if (end + 32 !== buf.length) throw new EmbedError(`the embedding model ${file} is truncated or has extra bytes (${buf.length} bytes, expected ${end + 32})`);
  const sum = createHash('sha256').update(buf.subarray(0, end)).digest();
  if (!sum.equals(buf.subarray(end))) throw new EmbedError(`the embedding model ${file} is damaged (checksum mismatch): reinstall cairn`);
  const vocab = buf.toString('utf8', headerEnd, headerEnd + header.vocabBytes).split('\n');
  const onnx = new Uint8Array(buf.buffer, buf.byteOffset + headerEnd + header.vocabBytes, header.onnxBytes);
  return { header, vocab, onnx, digest: sum.toString('hex').slice(0, 16) };
}
