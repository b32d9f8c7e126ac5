// sprig v3.3.0's urlParse and urlJoin (url.go) on Go's net/url: Parse's split into scheme, userinfo,
// host, path, query and fragment with its percent-decoding and refusals, and URL.String's escaping.
import { unary } from './args.js';
import type { TemplateFunction } from './exec.js';
import { goType, isMap, type Value } from './go-values.js';
import { TemplateError } from './parser.js';

type Mode = 'path' | 'host' | 'zone' | 'user' | 'fragment';

/** net/url shouldEscape. */
function shouldEscape(c: number, mode: Mode): boolean {
  const ch = String.fromCharCode(c);
  if (/[a-zA-Z0-9]/.test(ch)) return false;
  if ((mode === 'host' || mode === 'zone') && `!$&'()*+,;=:[]<>"`.includes(ch)) return false;
  if ('-_.~'.includes(ch)) return false;
  if ('$&+,/:;=?@'.includes(ch)) {
    if (mode === 'path') return ch === '?';
    if (mode === 'user') return '@/?:'.includes(ch);
    return mode !== 'fragment';
  }
  return !(mode === 'fragment' && '!()*'.includes(ch));
}

/** net/url escape: every byte that should be escaped as %XX. */
function escape(text: string, mode: Mode): string {
  let out = '';
  for (const byte of new TextEncoder().encode(text))
    out += shouldEscape(byte, mode)
      ? `%${byte.toString(16).toUpperCase().padStart(2, '0')}`
      : String.fromCharCode(byte);
  return out;
}

/** A %XX escape Go refuses: in a host only for non-ASCII bytes (and %25); in a zone only for bytes a host may hold. */
function badEscape(hex: string, mode: Mode): boolean {
  const v = parseInt(hex, 16);
  if (hex.toUpperCase() === '25') return false;
  if (mode === 'host') return v < 0x80;
  return mode === 'zone' && v !== 0x20 && shouldEscape(v, 'host');
}

/** net/url unescape: %XX decoded (as UTF-8 bytes); a bad escape or a host character Go refuses is an error. */
function unescape(text: string, mode: Mode): string {
  const bytes: number[] = [];
  const raw = new TextEncoder().encode(text);
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if (c === 0x25) {
      const hex = text.slice(i + 1, i + 3);
      if (!/^[0-9a-fA-F]{2}$/.test(hex) || badEscape(hex, mode))
        throw new Error(`invalid URL escape "${text.slice(i, i + 3)}"`);
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else {
      if ((mode === 'host' || mode === 'zone') && c < 0x80 && shouldEscape(c, mode))
        throw new Error(`invalid character "${String.fromCharCode(c)}" in host name`);
      bytes.push(c);
    }
  }
  return new TextDecoder().decode(Uint8Array.from(bytes));
}

interface GoUrl {
  scheme: string;
  opaque: string;
  user?: { name: string; password?: string };
  host: string;
  path: string;
  query: string;
  fragment: string;
}

/** url.go getScheme: the scheme before the first `:`, or none when a character before it cannot be one. */
function splitScheme(raw: string): [string, string] {
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if (/[a-zA-Z]/.test(c)) continue;
    if (/[0-9+.-]/.test(c)) {
      if (i === 0) return ['', raw];
      continue;
    }
    if (c === ':') {
      if (i === 0) throw new Error('missing protocol scheme');
      return [raw.slice(0, i).toLowerCase(), raw.slice(i + 1)];
    }
    return ['', raw];
  }
  return ['', raw];
}

/** url.go parseHost: a bracketed IPv6 literal or a host with an optional numeric port. */
function parseHost(host: string): string {
  if (host.startsWith('[')) {
    const end = host.lastIndexOf(']');
    if (end < 0) throw new Error("missing ']' in host");
    const port = host.slice(end + 1);
    if (!/^(:\d*)?$/.test(port)) throw new Error(`invalid port "${port}" after host`);
    // RFC 6874: a zone after %25 inside the brackets is unescaped with its own rule.
    const zone = host.slice(0, end).indexOf('%25');
    if (zone >= 0)
      return (
        unescape(host.slice(0, zone), 'host') +
        unescape(host.slice(zone, end), 'zone') +
        unescape(host.slice(end), 'host')
      );
  } else {
    const colon = host.lastIndexOf(':');
    if (colon >= 0 && !/^:\d*$/.test(host.slice(colon)))
      throw new Error(`invalid port "${host.slice(colon)}" after host`);
  }
  return unescape(host, 'host');
}

function parseAuthority(url: GoUrl, authority: string): void {
  const at = authority.lastIndexOf('@');
  url.host = parseHost(authority.slice(at + 1));
  if (at < 0) return;
  const info = authority.slice(0, at);
  if (!/^[-A-Za-z0-9._~!$&'()*+,;=:%@]*$/.test(info)) throw new Error('net/url: invalid userinfo');
  const colon = info.indexOf(':');
  url.user =
    colon < 0
      ? { name: unescape(info, 'user') }
      : { name: unescape(info.slice(0, colon), 'user'), password: unescape(info.slice(colon + 1), 'user') };
}

/** url.Parse. */
function parseUrl(raw: string): GoUrl {
  const url: GoUrl = { scheme: '', opaque: '', host: '', path: '', query: '', fragment: '' };
  const hash = raw.indexOf('#');
  let rest = hash < 0 ? raw : raw.slice(0, hash);
  if (hash >= 0) url.fragment = unescape(raw.slice(hash + 1), 'fragment');
  // eslint-disable-next-line no-control-regex
  if (/[\x00-\x1f\x7f]/.test(rest)) throw new Error('net/url: invalid control character in URL');
  if (rest === '') return url;
  [url.scheme, rest] = splitScheme(rest);
  const question = rest.indexOf('?');
  if (question >= 0) [rest, url.query] = [rest.slice(0, question), rest.slice(question + 1)];
  if (!rest.startsWith('/')) {
    if (url.scheme !== '') return { ...url, opaque: rest };
    const colon = rest.indexOf(':');
    if (colon >= 0 && (rest.indexOf('/') < 0 || colon < rest.indexOf('/')))
      throw new Error('first path segment in URL cannot contain colon');
  }
  if ((url.scheme !== '' || !rest.startsWith('///')) && rest.startsWith('//')) {
    const slash = rest.indexOf('/', 2);
    parseAuthority(url, slash < 0 ? rest.slice(2) : rest.slice(2, slash));
    rest = slash < 0 ? '' : rest.slice(slash);
  }
  url.path = unescape(rest, 'path');
  return url;
}

/** URL.Hostname: the host without its port or IPv6 brackets. */
function hostname(host: string): string {
  const colon = host.lastIndexOf(':');
  const bare = colon >= 0 && host.lastIndexOf(']') < colon ? host.slice(0, colon) : host;
  return bare.startsWith('[') && bare.endsWith(']') ? bare.slice(1, -1) : bare;
}

function userText(user: GoUrl['user']): string {
  if (!user) return '';
  return escape(user.name, 'user') + (user.password === undefined ? '' : `:${escape(user.password, 'user')}`);
}

function urlParse(value: Value): Record<string, Value> {
  if (typeof value !== 'string') throw new TemplateError(`wrong type for value; expected string; got ${goType(value)}`);
  let url: GoUrl;
  try {
    url = parseUrl(value);
  } catch (error) {
    throw new TemplateError(`unable to parse url: parse ${JSON.stringify(value)}: ${(error as Error).message}`);
  }
  const { scheme, host, path, query, opaque, fragment } = url;
  return { scheme, host, hostname: hostname(host), path, query, opaque, fragment, userinfo: userText(url.user) };
}

/** URL.String. */
function urlString(url: GoUrl): string {
  let out = url.scheme === '' ? '' : `${url.scheme}:`;
  if (url.opaque !== '') out += url.opaque;
  else {
    if (url.scheme !== '' || url.host !== '' || url.user) {
      if (url.host !== '' || url.path !== '' || url.user) out += '//';
      if (url.user) out += `${userText(url.user)}@`;
      out += escape(url.host, 'host');
    }
    const path = url.path === '*' ? '*' : escape(url.path, 'path');
    if (path !== '' && !path.startsWith('/') && url.host !== '') out += '/';
    if (out === '' && path.split('/')[0]!.includes(':')) out += './';
    out += path;
  }
  if (url.query !== '') out += `?${url.query}`;
  return url.fragment === '' ? out : `${out}#${escape(url.fragment, 'fragment')}`;
}

function urlJoin(value: Value): string {
  if (!isMap(value))
    throw new TemplateError(`wrong type for value; expected map[string]interface {}; got ${goType(value)}`);
  const field = (key: string): string => {
    if (!Object.hasOwn(value, key)) return '';
    const item = value[key];
    if (typeof item !== 'string')
      throw new TemplateError(`unable to parse ${key} key, must be of type string, but ${goType(item)} found`);
    return item;
  };
  const url: GoUrl = {
    ...{ scheme: field('scheme'), host: field('host'), path: field('path') },
    ...{ query: field('query'), opaque: field('opaque'), fragment: field('fragment') },
  };
  const info = field('userinfo');
  if (info !== '') {
    try {
      url.user = parseUrl(`proto://${info}@host`).user;
    } catch (error) {
      throw new TemplateError(`unable to parse userinfo in dict: ${(error as Error).message}`);
    }
  }
  return urlString(url);
}

export function urlFunctions(): Record<string, TemplateFunction> {
  return { urlParse: unary('urlParse', urlParse), urlJoin: unary('urlJoin', urlJoin) };
}
