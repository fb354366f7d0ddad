#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Validate json_samples' documents against the report schema, and check that
the schema rejects documents it must reject.  Exit 77 without jsonschema."""
import copy
import json
import subprocess
import sys

exe, schema_path = sys.argv[1], sys.argv[2]
try:
    import jsonschema
except ImportError:
    print("python3-jsonschema not installed: skipped")
    sys.exit(77)

with open(schema_path) as f:
    schema = json.load(f)
cls = jsonschema.validators.validator_for(schema)
cls.check_schema(schema)
validator = cls(schema)

out = subprocess.run([exe], check=True, stdout=subprocess.PIPE).stdout.decode("utf-8")
docs = [json.loads(part) for part in out.split("\x1e\n") if part.strip()]
assert len(docs) == 7, len(docs)
statuses = [d["verdict"]["status"] for d in docs]
assert statuses == ["unknown", "ready", "degraded", "unknown", "blocked", "blocked", "ready"], statuses
bad = 0
for i, d in enumerate(docs):
    for e in validator.iter_errors(d):
        print("sample %d: %s: %s" % (i, "/".join(map(str, e.absolute_path)), e.message))
        bad += 1

# Mutations the schema must refuse: each proves a constraint is there.
base = docs[5]
def mutated(fn):
    d = copy.deepcopy(base)
    fn(d)
    return d
must_fail = {
    "extra top-level key": lambda d: d.update(extra=1),
    "wrong schema id": lambda d: d.update(schema="check_interconnect/v2"),
    "bad status": lambda d: d["pods"][0]["checks"][0].update(status="error"),
    "bad id": lambda d: d["checks"][0].update(id="Env.Bad-Id"),
    "extra check key": lambda d: d["checks"][0].update(extra=True),
    "missing evidence": lambda d: d["checks"][0].pop("evidence"),
    "bad layer": lambda d: d["checks"][0].update(layer="network"),
    "exit code mismatch": lambda d: d["verdict"].update(exit_code=1),
    "trusted while blocked": lambda d: d["verdict"].update(trusted=True),
    "negative count": lambda d: d["counts"].update(ok=-1),
    "schema inside a pod": lambda d: d["pods"][0].update(schema="check_interconnect/v1"),
    "extra key in a pod": lambda d: d["pods"][0].update(fleet=[]),
    "missing verdict": lambda d: d.pop("verdict"),
    "step without command": lambda d: d["pods"][1]["next_steps"][0].pop("command"),
    "fix not string": lambda d: d["checks"][0].update(fix=3),
}
for name, fn in must_fail.items():
    if validator.is_valid(mutated(fn)):
        print("schema accepts an invalid document: %s" % name)
        bad += 1
print("%d samples, %d mutations, %d problems" % (len(docs), len(must_fail), bad))
sys.exit(1 if bad else 0)
