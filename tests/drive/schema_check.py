"""A small JSON Schema check, enough for the schemas mettle generates (draft 2020-12: $ref into $defs,
type, properties, required, additionalProperties, items, enum, const, anyOf, oneOf, allOf, minimum).
Standard library only."""

import json


def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def _type_ok(t, v):
    if t == "null":
        return v is None
    if t == "boolean":
        return isinstance(v, bool)
    if t == "integer":
        return isinstance(v, int) and not isinstance(v, bool)
    if t == "number":
        return isinstance(v, (int, float)) and not isinstance(v, bool)
    if t == "string":
        return isinstance(v, str)
    if t == "array":
        return isinstance(v, list)
    if t == "object":
        return isinstance(v, dict)
    raise ValueError(f"unknown type {t}")


def errors(schema, v, root=None, at="$"):
    """Every way `v` does not fit `schema`, as messages."""
    root = schema if root is None else root
    if schema is True:
        return []
    if schema is False:
        return [f"{at}: nothing fits here"]
    out = []
    if "$ref" in schema:
        ref = schema["$ref"]
        assert ref.startswith("#/$defs/"), ref
        out += errors(root["$defs"][ref[len("#/$defs/"):]], v, root, at)
    if "type" in schema:
        types = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        if not any(_type_ok(t, v) for t in types):
            return out + [f"{at}: {json.dumps(v)[:80]} is not {types}"]
    if "const" in schema and v != schema["const"]:
        out.append(f"{at}: {v!r} is not {schema['const']!r}")
    if "enum" in schema and v not in schema["enum"]:
        out.append(f"{at}: {v!r} is not one of {schema['enum']}")
    if "minimum" in schema and isinstance(v, (int, float)) and v < schema["minimum"]:
        out.append(f"{at}: {v} is under {schema['minimum']}")
    if isinstance(v, dict):
        props = schema.get("properties", {})
        for name in schema.get("required", []):
            if name not in v:
                out.append(f"{at}: `{name}` is missing")
        for name, value in v.items():
            if name in props:
                out += errors(props[name], value, root, f"{at}.{name}")
            elif "additionalProperties" in schema:
                out += errors(schema["additionalProperties"], value, root, f"{at}.{name}")
    if isinstance(v, list) and "items" in schema:
        for i, item in enumerate(v):
            out += errors(schema["items"], item, root, f"{at}[{i}]")
    for s in schema.get("allOf", []):
        out += errors(s, v, root, at)
    if "anyOf" in schema and not any(not errors(s, v, root, at) for s in schema["anyOf"]):
        out.append(f"{at}: fits none of anyOf")
    if "oneOf" in schema:
        n = sum(1 for s in schema["oneOf"] if not errors(s, v, root, at))
        if n != 1:
            out.append(f"{at}: fits {n} of oneOf, not exactly one")
    return out
