#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Each machine format fed to the program a user feeds it to.

usage: check_consumers.py BINARY

- json:       schema/check_interconnect.schema.json (python3-jsonschema)
- sarif:      Microsoft's SARIF Multitool `validate` with GitHub's rules
              (--rule-kind "Ghas;Sarif" and the GH10xx rules enabled as the
              sarif-sdk's policies/github.config.xml enables them): what
              GitHub code scanning's ingestion rejects is an error there
- junit:      xmllint --schema tests/junit/junit-10.xsd (the Jenkins xunit
              plugin's JUnit schema)
- prometheus: promtool check metrics (Prometheus's own linter)

over the bundled example, the official recipe tree (../shared/fixtures/
recipes, run from its parent as a recipe repository's CI runs it), the
tests' own recipe fixtures and fleet transcripts (the fake kubectl).  A
consumer that is not installed is skipped with its reason on stdout: .ci/run
installs all four (the Multitool from npm into $CI_TOOLS, outside the
checkout).  The last line is "N passed, N failed".
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
SHARED = os.path.join(os.path.dirname(ROOT), "shared", "fixtures")
BIN = os.path.abspath(sys.argv[1])
CI_TOOLS = os.environ.get("CI_TOOLS", "/opt/check_interconnect-ci")
PASSED, FAILED, SKIPS = [], [], []
# the fake clusters, built at test time (tests/fixtures/fleet/clusters.py)
FLEET = subprocess.run([sys.executable, os.path.join(ROOT, "tests/fixtures/trees.py")], check=True,
                       capture_output=True, text=True).stdout.strip() + "/fleet"

FLEET_ENV = {"FAKE_KUBECTL_PODS_DIR": os.path.join(FLEET, "image_tcp")}
FAKE = ["--kubectl", os.path.join(ROOT, "tests/fakes/kubectl")]
# (name, cwd, args, env, github): github says whether every result has a
# file, so that GitHub code scanning can take the SARIF (a fleet run
# without a recipe names pods only: the Multitool's SARIF rules then).
RUNS = [
    ("example", ROOT, ["env", "examples/recipes/llama-70b-disagg-ib"], {}, True),
    ("official-recipes", SHARED, ["env", "recipes"], {}, True),
    ("test-recipes", ROOT, ["env", "tests/fixtures/env/recipes", "tests/fixtures/fleet/recipes"],
     {}, True),
    ("env-absolute-path", ROOT, ["env", os.path.join(ROOT, "examples/recipes")], {}, True),
    ("fleet-all-recipe", ROOT, ["all", "tests/fixtures/fleet/recipes/llm-disagg-image",
                                "--deployment", "llm-disagg", "-n", "dynamo"] + FAKE,
     FLEET_ENV, True),
    ("fleet-node", ROOT, ["node", "--deployment", "llm-disagg", "-n", "dynamo"] + FAKE,
     {"FAKE_KUBECTL_PODS_DIR": os.path.join(FLEET, "port_down")},
     False),
    ("node-replay", ROOT, ["node", "--replay", "tests/fixtures/node/transcripts/h100_ib.txt"],
     {}, False),
    # RBAC refuses the exec: the verdict is unknown, which CI must not show green
    ("node-forbidden", ROOT, ["node", "-n", "dynamo", "--pod", "vllm-decode-0"] + FAKE,
     {"FAKE_KUBECTL_MODE": "forbidden"}, False),
]

# GitHub's rule set, as the sarif-sdk's policies/github.config.xml (commit
# a4dbd243) states it: the GH10xx ingestion rules on as errors, SARIF2007
# raised to an error, SARIF2016 off (SARIF2007 is stricter).
GITHUB_RULES = {
    "SARIF2007.ExpressPathsRelativeToRepoRoot": "Error",
    "SARIF2016.FileUrisShouldBeRelative": "Disabled",
    "GH1001.ProvideRequiredLocationProperties": "Error",
    "GH1002.InlineThreadFlowLocations": "Error",
    "GH1003.ProvideRequiredRegionProperties": "Error",
    "GH1004.ReviewArraysThatExceedConfigurableDefaults": "Error",
    "GH1005.LocationsMustBeRelativeUrisOrFilePaths": "Error",
    "GH1006.ProvideCheckoutPath": "Error",
    "GH1007.ProvideFullyFormattedMessageStrings": "Error",
}


def check(name, ok, why=""):
    (PASSED if ok else FAILED).append(name)
    print("%s %s%s" % ("ok  " if ok else "FAIL", name, (": " + why) if why and not ok else ""))


def skip(consumer, why):
    if consumer not in [s[0] for s in SKIPS]:
        SKIPS.append((consumer, why))
        print("skip %s: %s" % (consumer, why))


def run(cwd, args, extra_env, fmt):
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LC_ALL": "C", "NO_COLOR": "1",
           "SOURCE_DATE_EPOCH": "1764547200", "HOME": tempfile.gettempdir()}
    env.update(extra_env)
    for v in ("ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS"):
        if v in os.environ:
            env[v] = os.environ[v]
    p = subprocess.run([BIN, "--format", fmt] + args, cwd=cwd, env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=120)
    return p.returncode, p.stdout


def json_validator():
    try:
        import jsonschema
    except ImportError:
        skip("json", "python3-jsonschema is not installed")
        return None
    with open(os.path.join(ROOT, "schema", "check_interconnect.schema.json")) as f:
        schema = json.load(f)
    cls = jsonschema.validators.validator_for(schema)
    return cls(schema)


def multitool():
    exe = os.environ.get("SARIF_MULTITOOL") or os.path.join(
        CI_TOOLS, "node_modules", "@microsoft", "sarif-multitool-linux", "Sarif.Multitool")
    if not os.access(exe, os.X_OK):
        skip("sarif", "the SARIF Multitool is not installed (%s; .ci/run installs "
             "@microsoft/sarif-multitool from npm there)" % exe)
        return None
    return exe


def validate_sarif(exe, tmp, name, data, github):
    src = os.path.join(tmp, name + ".sarif")
    out = os.path.join(tmp, name + ".validation.sarif")
    with open(src, "wb") as f:
        f.write(data)
    args = [exe, "validate", "--output", out, "--level", "Error;Warning;Note"]
    if github:
        cfg = os.path.join(tmp, "github.config.xml")
        with open(cfg, "w") as f:
            f.write("<?xml version='1.0' encoding='utf-8'?>\n<Properties>\n")
            for rule, state in GITHUB_RULES.items():
                f.write("  <Properties Key='%s.Options'><Property Key='RuleEnabled' "
                        "Value='%s' /></Properties>\n" % (rule, state))
            f.write("</Properties>\n")
        args += ["--rule-kind", "Ghas;Sarif", "--config", cfg]
    # else its default rule kind, Sarif (version 5.7.0 refuses a lone
    # `--rule-kind Sarif` as "defined with a bad format")
    p = subprocess.run(args + [src], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       timeout=300, env=dict(os.environ, DOTNET_CLI_TELEMETRY_OPTOUT="1"))
    if not os.path.exists(out):
        return "the Multitool wrote no log (exit %d): %s" % (
            p.returncode, p.stdout.decode("utf-8", "replace")[-400:])
    with open(out, encoding="utf-8-sig") as f:
        log = json.load(f)
    bad = []
    for r in log["runs"][0].get("results", []):
        # WRN999: the config turns a rule off (SARIF2016, as GitHub's does).
        if r.get("level", "warning") in ("error", "warning") and \
                not r.get("ruleId", "").startswith("WRN999"):
            bad.append("%s %s" % (r.get("ruleId"), r["message"].get("text", "")[:200]))
    for n in log["runs"][0].get("invocations", [{}])[0].get("toolExecutionNotifications", []):
        if n.get("level") == "error":
            bad.append("tool: %s" % n["message"].get("text", "")[:200])
    if bad:
        return "%d problems, first: %s" % (len(bad), bad[0])
    return None


def main():
    validator = json_validator()
    mt = multitool()
    xmllint = shutil.which("xmllint")
    if not xmllint:
        skip("junit", "xmllint is not installed (Debian: libxml2-utils)")
    promtool = shutil.which("promtool")
    if not promtool:
        skip("prometheus", "promtool is not installed (Debian: prometheus)")
    xsd = os.path.join(ROOT, "tests", "junit", "junit-10.xsd")
    with tempfile.TemporaryDirectory() as tmp:
        for name, cwd, args, env, github in RUNS:
            if cwd == SHARED and not os.path.isdir(os.path.join(SHARED, "recipes")):
                skip("official-recipes", "../shared/fixtures/recipes is not there")
                continue
            if validator:
                rc, out = run(cwd, args, env, "json")
                errs = sorted(validator.iter_errors(json.loads(out)), key=lambda e: e.path)
                check("json " + name, not errs and rc in (0, 1, 2, 3),
                      "; ".join("%s: %s" % ("/".join(map(str, e.path)), e.message[:160])
                                for e in errs[:3]) or "exit %d" % rc)
            if mt:
                rc, out = run(cwd, args, env, "sarif")
                why = validate_sarif(mt, tmp, name, out, github)
                check("sarif %s (%s)" % (name, "GitHub rules" if github else "SARIF rules"),
                      why is None, why or "")
            if xmllint:
                rc, out = run(cwd, args, env, "junit")
                p = subprocess.run([xmllint, "--noout", "--schema", xsd, "-"], input=out,
                                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
                check("junit " + name, p.returncode == 0,
                      p.stdout.decode("utf-8", "replace")[:300])
                # unknown (exit 3) is never green: a critical check that
                # could not be made is an <error>
                if rc == 3:
                    import xml.etree.ElementTree as ET
                    errors = int(ET.fromstring(out).get("errors", "0"))
                    check("junit %s: unknown has errors" % name, errors > 0,
                          "exit 3 with errors=\"0\": a CI panel shows it green")
            if promtool:
                rc, out = run(cwd, args, env, "prometheus")
                p = subprocess.run([promtool, "check", "metrics"], input=out,
                                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
                check("prometheus " + name, p.returncode == 0,
                      p.stdout.decode("utf-8", "replace")[:300])
    print("consumers: %s" % ("; ".join("%s skipped (%s)" % s for s in SKIPS) or "all four ran"))
    print("%d passed, %d failed" % (len(PASSED), len(FAILED)))
    return 1 if FAILED else 0


if __name__ == "__main__":
    sys.exit(main())
