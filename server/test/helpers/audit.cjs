// Preloaded into a cairn process under test (NODE_OPTIONS="--require <this file>"). It appends
// one JSON line per event to $CAIRN_AUDIT_LOG:
//   {kind: 'fs', op, path, write}       every filesystem call that names a path
//   {kind: 'spawn', file, args}         every child process
//   {kind: 'net', what, detail}         every network attempt, which it also makes FAIL
//   {kind: 'dlopen', file}              every native addon (could reach the network outside JS)
// With CAIRN_AUDIT_UMASK0=1 it sets umask 0, so a file created without an explicit mode is 0666
// and a directory 0777: a mode check afterwards then catches every missing mode.
//
// Why this is sound for "no network": in Node every TCP/TLS/IPC connection (net, tls, http,
// https, fetch/undici) goes through net.Socket.prototype.connect, name resolution through dns,
// UDP through dgram; all are replaced here before cairn's bundle loads, and native addons and
// child processes are recorded so the test can rule them out too.
'use strict';
const fs = require('node:fs');

const LOG = process.env.CAIRN_AUDIT_LOG;
if (LOG) {
  const fd = fs.openSync(LOG, 'a', 0o600);
  const writeSync = fs.writeSync;
  const record = (e) => {
    try {
      writeSync(fd, `${JSON.stringify({ pid: process.pid, ...e })}\n`);
    } catch {
      /* never break the process under test */
    }
  };
  if (process.env.CAIRN_AUDIT_UMASK0 === '1') process.umask(0);

  const asPath = (p) => (typeof p === 'string' ? p : Buffer.isBuffer(p) ? p.toString() : p instanceof URL ? p.pathname : null);
  const { O_WRONLY, O_RDWR, O_CREAT, O_TRUNC, O_APPEND } = fs.constants;
  const writesFlags = (f) => (typeof f === 'number' ? (f & (O_WRONLY | O_RDWR | O_CREAT | O_TRUNC | O_APPEND)) !== 0 : typeof f === 'string' && /[wa+]/.test(f));

  // name -> (args) => [[path, write], ...]
  const one = (write) => (a) => [[a[0], write]];
  const OPS = {
    access: one(false), exists: one(false), lstat: one(false), stat: one(false), statfs: one(false), readdir: one(false), readFile: one(false),
    readlink: one(false), realpath: one(false), opendir: one(false), watch: one(false), watchFile: one(false), createReadStream: one(false),
    appendFile: one(true), chmod: one(true), chown: one(true), lchown: one(true), lutimes: one(true), mkdir: one(true), mkdtemp: one(true),
    rm: one(true), rmdir: one(true), truncate: one(true), unlink: one(true), utimes: one(true), writeFile: one(true), createWriteStream: one(true),
    open: (a) => [[a[0], writesFlags(a[1])]],
    rename: (a) => [[a[0], true], [a[1], true]],
    copyFile: (a) => [[a[0], false], [a[1], true]],
    cp: (a) => [[a[0], false], [a[1], true]],
    link: (a) => [[a[0], false], [a[1], true]],
    symlink: (a) => [[a[1], true]],
  };
  const wrap = (obj, name, paths, op) => {
    const orig = obj[name];
    if (typeof orig !== 'function' || orig.__audited) return;
    const wrapped = function (...args) {
      try {
        for (const [p, write] of paths(args)) {
          const path = asPath(p);
          if (path !== null) record({ kind: 'fs', op, path, write });
        }
      } catch {
        /* recording must never change behaviour */
      }
      return orig.apply(this, args);
    };
    Object.assign(wrapped, orig);
    wrapped.__audited = true;
    obj[name] = wrapped;
  };
  for (const [op, paths] of Object.entries(OPS)) {
    wrap(fs, op, paths, op);
    wrap(fs, `${op}Sync`, paths, op);
    wrap(fs.promises, op, paths, op);
  }

  const denied = (what, detail) => {
    record({ kind: 'net', what, detail: String(detail).slice(0, 300) });
    const err = new Error(`network access denied by the test audit hook (${what})`);
    err.code = 'EACCES';
    return err;
  };
  const net = require('node:net');
  net.Socket.prototype.connect = function (...args) {
    throw denied('net.Socket.connect', JSON.stringify(args[0]));
  };
  const tls = require('node:tls');
  tls.connect = (...args) => {
    throw denied('tls.connect', JSON.stringify(args[0]));
  };
  const dgram = require('node:dgram');
  dgram.createSocket = (...args) => {
    throw denied('dgram.createSocket', JSON.stringify(args[0]));
  };
  const dns = require('node:dns');
  for (const obj of [dns, dns.promises, dns.Resolver.prototype, dns.promises.Resolver.prototype]) {
    for (const name of Object.keys(obj)) {
      if (name === 'lookup' || name === 'lookupService' || name.startsWith('resolve') || name === 'reverse') {
        if (typeof obj[name] === 'function') {
          obj[name] = (...args) => {
            throw denied(`dns.${name}`, args[0]);
          };
        }
      }
    }
  }
  for (const mod of ['node:http', 'node:https']) {
    const m = require(mod);
    for (const name of ['request', 'get']) {
      m[name] = (...args) => {
        throw denied(`${mod}.${name}`, JSON.stringify(args[0]));
      };
    }
  }
  if (typeof globalThis.fetch === 'function') {
    globalThis.fetch = (input) => Promise.reject(denied('fetch', String(input)));
  }
  if (typeof globalThis.WebSocket === 'function') {
    globalThis.WebSocket = function () {
      throw denied('WebSocket', '');
    };
  }
  const dlopen = process.dlopen;
  process.dlopen = function (mod, file, ...rest) {
    record({ kind: 'dlopen', file: String(file) });
    return dlopen.call(this, mod, file, ...rest);
  };

  const cp = require('node:child_process');
  for (const name of ['spawn', 'spawnSync', 'execFile', 'execFileSync', 'exec', 'execSync', 'fork']) {
    const orig = cp[name];
    cp[name] = function (file, args, ...rest) {
      record({ kind: 'spawn', via: name, file: String(file), args: Array.isArray(args) ? args.map(String) : [] });
      return orig.call(this, file, args, ...rest);
    };
  }
  // ESM named imports of builtins (what cairn's bundle uses) see the replacements too.
  require('node:module').syncBuiltinESMExports();
}
