// sprig's deterministic crypto functions (crypto.go): derivePassword (the Master Password algorithm:
// scrypt of the password salted with the user, an HMAC-SHA256 seed of the site and counter picking a
// template and its characters), decryptAES (AES-256-CBC, the IV first, the padding cut as sprig cuts it)
// and buildCustomCert (a certificate and key given in base64, checked, returned as `.Cert` and `.Key`).
// scrypt costs about half a second, so each derivation counts a fifth of the template's step budget.
import { createDecipheriv, createHmac, createPrivateKey, scryptSync, X509Certificate } from 'node:crypto';
import { arity } from './args.js';
import type { TemplateFunction } from './exec.js';
import { getter, GoObject, goType, type Value } from './go-values.js';
import { TemplateError } from './parser.js';

const SEED = 'com.lyndir.masterpassword';

const TEMPLATES: Record<string, string[]> = {
  maximum: ['anoxxxxxxxxxxxxxxxxx', 'axxxxxxxxxxxxxxxxxno'],
  long: [
    ...['CvcvnoCvcvCvcv', 'CvcvCvcvnoCvcv', 'CvcvCvcvCvcvno', 'CvccnoCvcvCvcv', 'CvccCvcvnoCvcv'],
    ...['CvccCvcvCvcvno', 'CvcvnoCvccCvcv', 'CvcvCvccnoCvcv', 'CvcvCvccCvcvno', 'CvcvnoCvcvCvcc'],
    ...['CvcvCvcvnoCvcc', 'CvcvCvcvCvccno', 'CvccnoCvccCvcv', 'CvccCvccnoCvcv', 'CvccCvccCvcvno'],
    ...['CvcvnoCvccCvcc', 'CvcvCvccnoCvcc', 'CvcvCvccCvccno', 'CvccnoCvcvCvcc', 'CvccCvcvnoCvcc'],
    'CvccCvcvCvccno',
  ],
  medium: ['CvcnoCvc', 'CvcCvcno'],
  short: ['Cvcn'],
  basic: ['aaanaaan', 'aannaaan', 'aaannaaa'],
  pin: ['nnnn'],
};

const CHARACTERS: Record<string, string> = {
  V: 'AEIOU',
  C: 'BCDFGHJKLMNPQRSTVWXYZ',
  v: 'aeiou',
  c: 'bcdfghjklmnpqrstvwxyz',
  A: 'AEIOUBCDFGHJKLMNPQRSTVWXYZ',
  a: 'AEIOUaeiouBCDFGHJKLMNPQRSTVWXYZbcdfghjklmnpqrstvwxyz',
  n: '0123456789',
  o: "@&%?,=[]_:-+*$#!'^~;()/.",
  x: 'AEIOUaeiouBCDFGHJKLMNPQRSTVWXYZbcdfghjklmnpqrstvwxyz0123456789!@#$%^&*()',
};

/** The steps one scrypt derivation counts: at most five per template. */
const SCRYPT_STEPS = 40_000;

const uint32 = (n: number) => {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32BE(n);
  return bytes;
};

function stringArg(value: Value): string {
  if (typeof value === 'string') return value;
  throw new TemplateError(`wrong type for value; expected string; got ${goType(value)}`);
}

/** The last keys derived: the same password and user give the same key (the step charge stays). */
const KEYS = new Map<string, Buffer>();

/** Master Password's key: scrypt(password, seed + len(user) + user, N=32768, r=8, p=2), 64 bytes. */
function masterKey(password: string, user: string): Buffer {
  const id = JSON.stringify([password, user]);
  const known = KEYS.get(id);
  if (known) return known;
  const salt = Buffer.concat([Buffer.from(SEED), uint32(Buffer.byteLength(user)), Buffer.from(user)]);
  const key = scryptSync(password, salt, 64, { N: 32768, r: 8, p: 2, maxmem: 64 * 1024 * 1024 });
  if (KEYS.size >= 8) KEYS.delete(KEYS.keys().next().value!);
  KEYS.set(id, key);
  return key;
}

const derivePassword: TemplateFunction = (args, context) => {
  arity('derivePassword', args, 5);
  const [counter, kind, password, user, site] = args;
  if (typeof counter !== 'bigint' || counter < 0n || counter > 0xffffffffn)
    throw new TemplateError(`wrong type for value; expected uint32; got ${goType(counter)}`);
  const [type, secret, name, host] = [kind, password, user, site].map(stringArg) as [string, string, string, string];
  const templates = TEMPLATES[type];
  if (!templates) return `cannot find password template ${type}`;
  context.charge(SCRYPT_STEPS);
  const key = masterKey(secret, name);
  const data = Buffer.concat([Buffer.from(SEED), uint32(Buffer.byteLength(host)), Buffer.from(host)]);
  const seed = createHmac('sha256', key)
    .update(Buffer.concat([data, uint32(Number(counter))]))
    .digest();
  const template = templates[seed[0]! % templates.length]!;
  return [...template].map((c, i) => CHARACTERS[c]![seed[i + 1]! % CHARACTERS[c]!.length]).join('');
};

/** encoding/base64 StdEncoding.DecodeString: padded, line breaks ignored, anything else refused. */
function base64Bytes(text: string): Buffer {
  const body = text.replace(/[\r\n]/g, '');
  const bad = /[^A-Za-z0-9+/=]|=[^=]|={3}/.exec(body);
  if (bad || body.length % 4 !== 0)
    throw new TemplateError(`illegal base64 data at input byte ${bad ? bad.index : body.length - (body.length % 4)}`);
  return Buffer.from(body, 'base64');
}

/** sprig decryptAES(password, base64): the key the password's bytes zero-padded to 32, the IV the first block. */
function decryptAES(password: string, crypt64: string): string {
  if (crypt64 === '') return '';
  const key = Buffer.alloc(32);
  Buffer.from(password).copy(key, 0, 0, 32);
  const crypt = base64Bytes(crypt64);
  if (crypt.length < 16)
    throw new TemplateError(`runtime error: slice bounds out of range [:16] with capacity ${crypt.length}`);
  const body = crypt.subarray(16);
  if (body.length % 16 !== 0) throw new TemplateError('crypto/cipher: input not full blocks');
  if (body.length === 0) throw new TemplateError('runtime error: index out of range [-1]');
  const decipher = createDecipheriv('aes-256-cbc', key, crypt.subarray(0, 16)).setAutoPadding(false);
  const plain = Buffer.concat([decipher.update(body), decipher.final()]);
  const cut = plain.length - plain[plain.length - 1]!;
  if (cut < 0) throw new TemplateError(`runtime error: slice bounds out of range [:${cut}]`);
  return plain.subarray(0, cut).toString('utf8');
}

/** encoding/pem Decode: the first block's type and bytes. */
function pemBlock(text: string): { type: string; der: Buffer } | undefined {
  const m = /-----BEGIN ([^\n-]+)-----\r?\n([\s\S]*?)-----END \1-----/.exec(text);
  return m ? { type: m[1]!, der: Buffer.from(m[2]!.replace(/\s+/g, ''), 'base64') } : undefined;
}

/** sprig parsePrivateKeyPEM: PKCS#8, or an RSA, EC or DSA key by the block's type. */
function checkPrivateKey(text: string): void {
  const block = pemBlock(text);
  if (!block) throw new Error('no PEM data in input');
  if (block.type !== 'PRIVATE KEY' && !block.type.endsWith(' PRIVATE KEY'))
    throw new Error(`no private key data in PEM block of type ${block.type}`);
  const kind = block.type.slice(0, -' PRIVATE KEY'.length);
  if (!['', 'RSA', 'EC', 'DSA'].includes(kind)) throw new Error(`invalid private key type ${block.type}`);
  try {
    createPrivateKey(text.slice(text.indexOf(`-----BEGIN ${block.type}-----`)));
  } catch (error) {
    const what = kind === '' ? 'decoding PEM as PKCS#8' : `parsing ${kind} private key from PEM`;
    throw new Error(`${what}: ${(error as Error).message}`, { cause: error });
  }
}

/** sprig buildCustomCert: a certificate{Cert, Key} of the decoded PEM texts, both checked. */
function buildCustomCert(b64cert: string, b64key: string): GoObject {
  const decode = (text: string, what: string) => {
    try {
      return base64Bytes(text).toString('utf8');
    } catch {
      throw new TemplateError(`unable to decode base64 ${what}`);
    }
  };
  const [cert, key] = [decode(b64cert, 'certificate'), decode(b64key, 'private key')];
  const block = pemBlock(cert);
  if (!block) throw new TemplateError('unable to decode certificate');
  try {
    new X509Certificate(block.der);
  } catch (error) {
    throw new TemplateError(`error parsing certificate: decodedCert.Bytes: ${(error as Error).message}`);
  }
  try {
    checkPrivateKey(key);
  } catch (error) {
    throw new TemplateError(`error parsing private key: ${(error as Error).message}`);
  }
  return new GoObject('sprig.certificate', `{${cert} ${key}}`, { Cert: getter(() => cert), Key: getter(() => key) });
}

export function cryptoFunctions(): Record<string, TemplateFunction> {
  const strings2 = (name: string, fn: (a: string, b: string) => Value): TemplateFunction => {
    return (args) => {
      arity(name, args, 2);
      return fn(stringArg(args[0]), stringArg(args[1]));
    };
  };
  return {
    derivePassword,
    decryptAES: strings2('decryptAES', decryptAES),
    buildCustomCert: strings2('buildCustomCert', buildCustomCert),
  };
}
