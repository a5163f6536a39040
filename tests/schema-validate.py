#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
# Validate JSON documents against docs/schema/<name>.schema.json:
#     schema-validate.py SCHEMA_DIR NAME FILE... [-- NAME FILE...]...
# (several groups in one run: jsonschema's import is most of a run's
# time). Exit 0 when all validate, 1 with the first error of each that
# does not, 77 when python3-jsonschema is missing (the test is then
# skipped).
import json
import sys

try:
    import jsonschema
except ImportError:
    print("SKIP: python3-jsonschema is not installed (make deps)", file=sys.stderr)
    sys.exit(77)


def validate(schema_dir, name, files):
    with open("%s/%s.schema.json" % (schema_dir, name)) as f:
        schema = json.load(f)
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    validator = cls(schema)
    bad = 0
    for path in files:
        with open(path) as f:
            doc = json.load(f)
        errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.path))
        if errors:
            e = errors[0]
            print("%s: %s schema: at /%s: %s (%d errors)" % (
                path, name, "/".join(str(p) for p in e.path), e.message,
                len(errors)), file=sys.stderr)
            bad = 1
    return bad


def main():
    schema_dir, args = sys.argv[1], sys.argv[2:]
    bad = 0
    while args:
        group = args[:args.index("--")] if "--" in args else args
        args = args[len(group) + 1:]
        if len(group) < 2:
            print("schema-validate.py: a group without NAME FILE...", file=sys.stderr)
            sys.exit(2)
        bad |= validate(schema_dir, group[0], group[1:])
    sys.exit(bad)


main()
