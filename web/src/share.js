// The ruleset in the page's address: its files as JSON, deflated by the browser's own
// CompressionStream and written in base64url after `#code=`. Nothing leaves the page: the fragment
// is never sent to a server.

const PREFIX = 'code=';

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

/** The files a fragment carries, or null when it carries none; throws when it is damaged. */
export async function decode(fragment) {
  const text = fragment.replace(/^#/, '');
  if (!text.startsWith(PREFIX)) return null;
  const bytes = await pipe(fromBase64url(text.slice(PREFIX.length)), new DecompressionStream('deflate-raw'));
  const files = JSON.parse(new TextDecoder().decode(bytes));
  if (typeof files !== 'object' || !files || Object.values(files).some((v) => typeof v !== 'string')) {
    throw new Error('the link does not hold a ruleset');
  }
  return files;
}
