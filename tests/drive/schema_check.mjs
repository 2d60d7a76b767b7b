// A small JSON Schema check, enough for the schemas mettle generates (draft 2020-12: $ref into $defs,
// type, properties, required, additionalProperties, items, enum, const, anyOf, oneOf, allOf, minimum).
// No packages.

import { readFileSync } from "node:fs";

export function load(path) {
  return JSON.parse(readFileSync(path, "utf8"));
}

function typeOk(t, v) {
  switch (t) {
    case "null": return v === null;
    case "boolean": return typeof v === "boolean";
    case "integer": return Number.isInteger(v);
    case "number": return typeof v === "number";
    case "string": return typeof v === "string";
    case "array": return Array.isArray(v);
    case "object": return v !== null && typeof v === "object" && !Array.isArray(v);
    default: throw new Error(`unknown type ${t}`);
  }
}

function equal(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Every way `v` does not fit `schema`, as messages. */
export function errors(schema, v, root = schema, at = "$") {
  if (schema === true) return [];
  if (schema === false) return [`${at}: nothing fits here`];
  let out = [];
  if ("$ref" in schema) {
    const ref = schema.$ref;
    if (!ref.startsWith("#/$defs/")) throw new Error(ref);
    out = out.concat(errors(root.$defs[ref.slice("#/$defs/".length)], v, root, at));
  }
  if ("type" in schema) {
    const types = Array.isArray(schema.type) ? schema.type : [schema.type];
    if (!types.some((t) => typeOk(t, v))) return out.concat([`${at}: ${JSON.stringify(v).slice(0, 80)} is not ${types}`]);
  }
  if ("const" in schema && !equal(v, schema.const)) out.push(`${at}: ${JSON.stringify(v)} is not ${JSON.stringify(schema.const)}`);
  if ("enum" in schema && !schema.enum.some((e) => equal(e, v))) out.push(`${at}: ${JSON.stringify(v)} is not one of the enum`);
  if ("minimum" in schema && typeof v === "number" && v < schema.minimum) out.push(`${at}: ${v} is under ${schema.minimum}`);
  if (typeOk("object", v)) {
    const props = schema.properties ?? {};
    for (const name of schema.required ?? []) if (!(name in v)) out.push(`${at}: \`${name}\` is missing`);
    for (const [name, value] of Object.entries(v)) {
      if (name in props) out = out.concat(errors(props[name], value, root, `${at}.${name}`));
      else if ("additionalProperties" in schema) out = out.concat(errors(schema.additionalProperties, value, root, `${at}.${name}`));
    }
  }
  if (Array.isArray(v) && "items" in schema) v.forEach((item, i) => { out = out.concat(errors(schema.items, item, root, `${at}[${i}]`)); });
  for (const s of schema.allOf ?? []) out = out.concat(errors(s, v, root, at));
  if ("anyOf" in schema && !schema.anyOf.some((s) => errors(s, v, root, at).length === 0)) out.push(`${at}: fits none of anyOf`);
  if ("oneOf" in schema) {
    const n = schema.oneOf.filter((s) => errors(s, v, root, at).length === 0).length;
    if (n !== 1) out.push(`${at}: fits ${n} of oneOf, not exactly one`);
  }
  return out;
}
