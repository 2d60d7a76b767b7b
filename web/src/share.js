// The ruleset in the page's address: its files as JSON, deflated by the browser's own
// CompressionStream and written in base64url after `#code=`. Nothing leaves the page: the fragment
// is never sent to a server.

const PREFIX = 'code=';
/** The most a link may unpack to: a hostile link of a megabyte could otherwise unpack to a gigabyte. */
export const MAX_UNPACKED = 16 * 1024 * 1024;

async function pipe(bytes, stream) {
  const out = new Blob([bytes]).stream().pipeThrough(stream);
  return new Uint8Array(await new Response(out).arrayBuffer());
}

function toBase64url(bytes) {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64url(text) {
  const s = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(s, (c) => c.charCodeAt(0));
}

/** The fragment (without `#`) that carries `files`: `{ name: text }`, the ruleset first. */
export async function encode(files) {
  const json = new TextEncoder().encode(JSON.stringify(files));
  return PREFIX + toBase64url(await pipe(json, new CompressionStream('deflate-raw')));
}

/** `bytes` inflated, read a piece at a time and given up past `MAX_UNPACKED`. */
async function inflate(bytes) {
  const reader = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('deflate-raw')).getReader();
  const pieces = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > MAX_UNPACKED) {
      await reader.cancel();
      throw new Error(`the link unpacks to more than ${MAX_UNPACKED / (1024 * 1024)} MB, more than any ruleset`);
    }
    pieces.push(value);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const p of pieces) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** The files a fragment carries, or null when it carries none; throws when it is damaged. */
export async function decode(fragment) {
  const text = fragment.replace(/^#/, '');
  if (!text.startsWith(PREFIX)) return null;
  const bytes = await inflate(fromBase64url(text.slice(PREFIX.length)));
  const files = JSON.parse(new TextDecoder().decode(bytes));
  if (typeof files !== 'object' || !files || Array.isArray(files) || Object.values(files).some((v) => typeof v !== 'string')) {
    throw new Error('the link does not hold a ruleset');
  }
  return files;
}
