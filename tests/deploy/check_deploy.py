#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""deploy/ checked as its consumers check it.

usage: check_deploy.py [BINARY]

- kustomize: deploy/kustomization.yaml lists every file of deploy/ and builds
  (`kubectl kustomize` where kubectl is installed; else the same assembly
  here); no object names a namespace;
- the DaemonSet's least privilege, as deploy/README.md states it;
- the Kubernetes OpenAPI schema (kubernetes-models) and the Prometheus
  Operator's CRD schemas (@kubernetes-models/prometheus-operator), Ajv and
  strict (unknown fields), and Grafana's dashboard model (@grafana/schema)
  for the dashboard: tests/deploy/validate.mjs with node, from npm into
  $CI_TOOLS by .ci/run; mutants (a typo'd field, a wrong type) must fail;
- promtool check rules and promtool test rules (tests/deploy/rules.test.yaml)
  on the PrometheusRule's groups, and each alert broken once must turn the
  rule tests red; every dashboard query parses as PromQL (promtool);
- the metric names the rules and the dashboard use, and the labels the rules
  select on, are the ones `BINARY agent --once` writes (on
  tests/deploy/make_sysroot.py's node) and docs/formats.md documents.

A consumer that is not installed is skipped with its reason on stdout (.ci/run
installs them all).  The last line is "N passed, N failed".
"""
import copy
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

import yaml

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
DEPLOY = os.path.join(ROOT, "deploy")
HERE = os.path.dirname(os.path.abspath(__file__))
CI_TOOLS = os.environ.get("CI_TOOLS", "/opt/check_interconnect-ci")
NODE_MODULES = os.path.join(CI_TOOLS, "node_modules")
NPM_PACKAGES = ["kubernetes-models", "@kubernetes-models/prometheus-operator", "@grafana/schema",
                "typescript"]
PASSED, FAILED, SKIPPED = [], [], []


def check(name, ok, why=""):
    (PASSED if ok else FAILED).append(name)
    print("%s %s%s" % ("ok  " if ok else "FAIL", name, (": " + why) if why and not ok else ""))


def skip(name, why):
    SKIPPED.append(name)
    print("skip %s: %s" % (name, why))


def load_yaml_docs(path):
    with open(path) as f:
        return [d for d in yaml.safe_load_all(f) if d]


def assemble():
    """The objects `kubectl apply -k deploy/` creates (kustomization.yaml)."""
    with open(os.path.join(DEPLOY, "kustomization.yaml")) as f:
        k = yaml.safe_load(f)
    objs = []
    for r in k.get("resources", []):
        objs += load_yaml_docs(os.path.join(DEPLOY, r))
    for g in k.get("configMapGenerator", []):
        data = {}
        for spec in g.get("files", []):
            key, _, src = spec.partition("=")
            if not src:
                key, src = os.path.basename(spec), spec
            with open(os.path.join(DEPLOY, src)) as f:
                data[key] = f.read()
        labels = dict(g.get("options", {}).get("labels", {}))
        objs.append({"apiVersion": "v1", "kind": "ConfigMap",
                     "metadata": {"name": g["name"], "labels": labels}, "data": data})
    for lab in k.get("labels", []):
        for o in objs:
            o.setdefault("metadata", {}).setdefault("labels", {}).update(lab.get("pairs", {}))
    for img in k.get("images", []):
        for o in objs:
            for c in o.get("spec", {}).get("template", {}).get("spec", {}).get("containers", []):
                if c.get("image") == img["name"]:
                    c["image"] = img.get("newName", img["name"]) + ":" + img["newTag"]
    return k, objs


def by_kind(objs, kind):
    return [o for o in objs if o.get("kind") == kind]


def check_kustomize(k, objs):
    listed = set(k.get("resources", []))
    for g in k.get("configMapGenerator", []):
        listed |= {s.partition("=")[2] or s for s in g.get("files", [])}
    present = {f for f in os.listdir(DEPLOY) if f.endswith((".yaml", ".json"))} - {"kustomization.yaml"}
    check("kustomization lists every file of deploy/", listed == present,
          "not listed: %s; missing: %s" % (sorted(present - listed), sorted(listed - present)))
    check("no object names a namespace (kubectl apply -k deploy/ -n NS)",
          all("namespace" not in o.get("metadata", {}) for o in objs))
    kubectl = shutil.which("kubectl")
    if not kubectl:
        skip("kubectl kustomize", "kubectl is not installed (the assembly above is checked instead)")
        return objs
    p = subprocess.run([kubectl, "kustomize", DEPLOY], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True, timeout=120)
    check("kubectl kustomize deploy/ builds", p.returncode == 0, p.stderr.strip()[:300])
    if p.returncode != 0:
        return objs
    built = [d for d in yaml.safe_load_all(p.stdout) if d]
    names = lambda os_: sorted((o["kind"], o["metadata"]["name"]) for o in os_)
    check("kubectl kustomize gives the objects listed", names(built) == names(objs),
          "%s != %s" % (names(built), names(objs)))
    return built


def check_privilege(objs):
    ds = by_kind(objs, "DaemonSet")
    check("one DaemonSet", len(ds) == 1)
    if len(ds) != 1:
        return
    pod = ds[0]["spec"]["template"]["spec"]
    c = pod["containers"][0]
    sc = c.get("securityContext", {})
    psc = pod.get("securityContext", {})
    check("hostPID (the engines' processes)", pod.get("hostPID") is True)
    check("no host network, IPC", not pod.get("hostNetwork") and not pod.get("hostIPC"))
    check("not privileged, no privilege escalation",
          sc.get("privileged") is not True and sc.get("allowPrivilegeEscalation") is False)
    check("read-only root filesystem", sc.get("readOnlyRootFilesystem") is True)
    caps = sc.get("capabilities", {})
    check("capabilities: drop ALL, add only SYS_PTRACE and DAC_READ_SEARCH",
          caps.get("drop") == ["ALL"] and sorted(caps.get("add", [])) == ["DAC_READ_SEARCH", "SYS_PTRACE"],
          str(caps))
    seccomp = (sc.get("seccompProfile") or psc.get("seccompProfile") or {}).get("type")
    check("seccomp RuntimeDefault", seccomp == "RuntimeDefault")
    check("no service account token (the agent makes no API call)",
          pod.get("automountServiceAccountToken") is False and
          all(s.get("automountServiceAccountToken") is False for s in by_kind(objs, "ServiceAccount")))
    vols = {v["name"]: v for v in pod.get("volumes", [])}
    mounts = {m["name"]: m for m in c.get("volumeMounts", [])}
    want = {"/proc", "/sys", "/dev", "/var/log/pods", "/var/log/containers"}
    host = {v["hostPath"]["path"]: n for n, v in vols.items() if "hostPath" in v}
    check("hostPath volumes: exactly /proc /sys /dev /var/log/pods /var/log/containers",
          set(host) == want, str(sorted(host)))
    ok = all(n in mounts and mounts[n].get("readOnly") is True and mounts[n]["mountPath"] == "/host" + p
             for p, n in host.items())
    check("each mounted read-only at /host + its path", ok)
    check("--sysroot is /host", "--sysroot=/host" in c.get("args", []), str(c.get("args")))
    res = c.get("resources", {})
    check("resource requests and limits (cpu, memory)",
          all(k in res.get("requests", {}) and k in res.get("limits", {}) for k in ("cpu", "memory")))
    check("tolerates the GPU nodes' nvidia.com/gpu taint",
          any(t.get("key") == "nvidia.com/gpu" for t in pod.get("tolerations", [])))
    env = {e["name"]: e for e in c.get("env", [])}
    check("NODE_NAME from spec.nodeName (downward API)",
          env.get("NODE_NAME", {}).get("valueFrom", {}).get("fieldRef", {}).get("fieldPath") == "spec.nodeName")
    ports = {p["name"]: p["containerPort"] for p in c.get("ports", [])}
    labels = ds[0]["spec"]["template"]["metadata"]["labels"]
    sel = ds[0]["spec"]["selector"]["matchLabels"]
    check("the selector matches the pod template", all(labels.get(a) == b for a, b in sel.items()))
    for pm in by_kind(objs, "PodMonitor"):
        ep = pm["spec"]["podMetricsEndpoints"]
        check("PodMonitor selects the agent's pods",
              all(labels.get(a) == b for a, b in pm["spec"]["selector"]["matchLabels"].items()))
        check("PodMonitor scrapes the port named metrics, honouring the engine labels",
              all(e.get("port") in ports and e.get("honorLabels") is True for e in ep))
        check("PodMonitor's jobLabel is a pod label", pm["spec"].get("jobLabel") in labels)
    for s in by_kind(objs, "Service"):
        check("Service selects the agent's pods",
              all(labels.get(a) == b for a, b in s["spec"]["selector"].items()))
    for cm in by_kind(objs, "ConfigMap"):
        check("dashboard ConfigMap has the Grafana sidecar's label",
              cm["metadata"].get("labels", {}).get("grafana_dashboard") == "1")
    with open(os.path.join(ROOT, "meson.build")) as f:
        version = re.search(r"^\s*version: '([^']+)'", f.read(), re.M).group(1)
    check("the image tag is the project's version (%s)" % version, c.get("image", "").endswith(":" + version),
          c.get("image", ""))


def rule_groups(objs):
    return [g for r in by_kind(objs, "PrometheusRule") for g in r["spec"]["groups"]]


def promtool_rules(tmp, groups, name):
    path = os.path.join(tmp, "rules.yaml")
    with open(path, "w") as f:
        yaml.safe_dump({"groups": groups}, f, sort_keys=False)
    shutil.copy(os.path.join(HERE, "rules.test.yaml"), tmp)
    return subprocess.run(["promtool", "test", "rules", "rules.test.yaml"], cwd=tmp,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=120)


def check_rules(objs, dashboard):
    if not shutil.which("promtool"):
        skip("promtool", "promtool is not installed (Debian's prometheus package)")
        return
    groups = rule_groups(objs)
    with tempfile.TemporaryDirectory(prefix="ci-deploy-rules-") as tmp:
        path = os.path.join(tmp, "rules.yaml")
        with open(path, "w") as f:
            yaml.safe_dump({"groups": groups}, f, sort_keys=False)
        p = subprocess.run(["promtool", "check", "rules", path], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True, timeout=60)
        check("promtool check rules", p.returncode == 0, p.stdout.strip()[-400:])
        p = promtool_rules(tmp, groups, "as shipped")
        check("promtool test rules (tests/deploy/rules.test.yaml)", p.returncode == 0, p.stdout.strip()[-800:])
        # each alert broken once: its expression never true
        alerts = [(gi, ri) for gi, g in enumerate(groups) for ri, r in enumerate(g["rules"]) if "alert" in r]
        for gi, ri in alerts:
            broken = copy.deepcopy(groups)
            rule = broken[gi]["rules"][ri]
            rule["expr"] = "(%s) and on() vector(0) == 1" % rule["expr"].strip()
            p = promtool_rules(tmp, broken, rule["alert"])
            check("rule tests go red with %s broken" % rule["alert"], p.returncode != 0,
                  "promtool test rules still passes: no test asserts that %s fires" % rule["alert"])
        # the dashboard's queries, as recording rules, parse as PromQL
        exprs = []
        def walk(ps):
            for p_ in ps:
                walk(p_.get("panels", []))
                exprs.extend(t["expr"] for t in p_.get("targets", []) if "expr" in t)
        walk(dashboard.get("panels", []))
        subst = lambda e: (e.replace("$__rate_interval", "5m").replace("$node", ".*")
                           .replace("$namespace", ".*"))
        with open(path, "w") as f:
            yaml.safe_dump({"groups": [{"name": "dashboard", "rules": [
                {"record": "dashboard:q%d" % i, "expr": subst(e)} for i, e in enumerate(exprs)]}]}, f)
        p = subprocess.run(["promtool", "check", "rules", path], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True, timeout=60)
        check("the dashboard's %d queries parse as PromQL (promtool)" % len(exprs), p.returncode == 0 and exprs,
              p.stdout.strip()[-400:])


def metric_names(text):
    return set(re.findall(r"\bcheck_interconnect_[a-z_]+\b", text))


def check_metric_names(objs, dashboard, binary):
    used = metric_names(json.dumps(rule_groups(objs))) | metric_names(json.dumps(dashboard))
    # the families the agent writes: agent --once on tests/deploy/make_sysroot.py's node
    if binary:
        with tempfile.TemporaryDirectory(prefix="ci-deploy-agent-") as tmp:
            subprocess.run([sys.executable, os.path.join(HERE, "make_sysroot.py"), tmp], check=True)
            p = subprocess.run([binary, "agent", "--once", "--sysroot", tmp, "--format", "prometheus"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=120,
                               env={"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LC_ALL": "C"})
        families = set(re.findall(r"^# TYPE (check_interconnect_[a-z_]+) ", p.stdout, re.M))
        check("agent --once writes metrics", p.returncode == 0 and families, p.stderr.strip()[-300:])
        check("every metric the rules and the dashboard use is one the agent writes",
              used <= families, "not written: %s" % sorted(used - families))
        labels = set(re.findall(r"[{,]([a-z_]+)=", p.stdout))
        sel = set()
        for e in [r["expr"] for g in rule_groups(objs) for r in g["rules"]]:
            sel |= set(re.findall(r"\b([a-z_]+)\s*(?:=~|!=|=)\s*\"", e))
            sel |= {x.strip() for b in re.findall(r"\b(?:by|on)\s*\(([^)]*)\)", e) for x in b.split(",")}
        sel -= {"job", "instance"}  # the scrape's own
        check("every label the rules select or group on is one the agent writes", sel <= labels,
              "not written: %s" % sorted(sel - labels))
    else:
        skip("agent metrics", "no binary given (meson passes check_interconnect)")
    with open(os.path.join(ROOT, "docs", "formats.md")) as f:
        documented = metric_names(f.read())
    if "check_interconnect_engine_kv_path" not in documented:
        skip("metric names in docs/formats.md", "docs/formats.md does not document the agent's metrics yet")
        return
    check("every metric the rules and the dashboard use is documented (docs/formats.md)",
          used <= documented, "not documented: %s" % sorted(used - documented))


def check_schemas(objs, dashboard):
    node = shutil.which("node")
    missing = [p for p in NPM_PACKAGES if not os.path.isdir(os.path.join(NODE_MODULES, p))]
    if not node or missing:
        skip("schemas", "%s (.ci/run installs %s from npm into %s)" % (
            "node is not installed" if not node else "not installed: " + ", ".join(missing),
            " ".join(NPM_PACKAGES), NODE_MODULES))
        return
    # mutants that a real validator must reject
    ds = by_kind(objs, "DaemonSet")[0]
    typo = copy.deepcopy(ds)
    typo["metadata"]["name"] = "mutant-typo"
    pod = typo["spec"]["template"]["spec"]
    pod["hostPid"] = pod.pop("hostPID")
    wrong = copy.deepcopy(ds)
    wrong["metadata"]["name"] = "mutant-type"
    wrong["spec"]["template"]["spec"]["containers"][0]["securityContext"]["runAsUser"] = "root"
    pm = copy.deepcopy(by_kind(objs, "PodMonitor")[0])
    pm["metadata"]["name"] = "mutant-crd"
    pm["spec"]["podMetricsEndpoints"][0]["honourLabels"] = True
    mutants = {"DaemonSet/mutant-typo", "DaemonSet/mutant-type", "PodMonitor/mutant-crd"}
    dash_bad = copy.deepcopy(dashboard)
    dash_bad["panels"][1]["gridPos"]["height"] = 10
    with tempfile.TemporaryDirectory(prefix="ci-deploy-schema-") as tmp:
        f_objs, f_dash, f_bad = (os.path.join(tmp, n) for n in ("objs.json", "dash.json", "bad.json"))
        with open(f_objs, "w") as f:
            json.dump(objs + [typo, wrong, pm], f)
        with open(f_dash, "w") as f:
            json.dump(dashboard, f)
        with open(f_bad, "w") as f:
            json.dump(dash_bad, f)
        results = {}
        for dash_file, tag in ((f_dash, ""), (f_bad, "mutant ")):
            p = subprocess.run([node, os.path.join(HERE, "validate.mjs"), NODE_MODULES, f_objs, dash_file],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=300)
            if p.returncode != 0:
                check("validate.mjs runs", False, p.stderr.strip()[-400:])
                return
            for line in p.stdout.splitlines():
                r = json.loads(line)
                results.setdefault(tag + r["name"] if r["name"].startswith("grafana") else r["name"], r)
    # what each mutant must be rejected by: an unknown field by the strict
    # (TypeScript) check, a wrong type by the schema (Ajv) and strict checks
    expect_rejected = {"strict DaemonSet/mutant-typo", "strict PodMonitor/mutant-crd",
                       "schema DaemonSet/mutant-type", "strict DaemonSet/mutant-type",
                       "mutant grafana Dashboard model"}
    for name, r in results.items():
        if name in expect_rejected:
            check("rejects %s" % name, not r["ok"], "the validator accepted a broken object")
        elif any(m in name for m in mutants) or name.startswith("mutant "):
            continue
        else:
            check(name, r["ok"], r["why"])
    for name in sorted(expect_rejected - set(results)):
        check("rejects %s" % name, False, "no result for it")


def main():
    k, objs = assemble()
    objs = check_kustomize(k, objs)
    check_privilege(objs)
    dashboard = json.loads(by_kind(objs, "ConfigMap")[0]["data"]["check-interconnect.json"])
    with open(os.path.join(DEPLOY, "dashboard.json")) as f:
        check("dashboard.json is JSON, the ConfigMap carries it unchanged", json.load(f) == dashboard)
    ids = []
    def walk(ps):
        for p in ps:
            ids.append(p["id"])
            walk(p.get("panels", []))
    walk(dashboard["panels"])
    check("dashboard panel ids unique", len(ids) == len(set(ids)))
    check("every panel's data source is the ${datasource} variable",
          all(p.get("datasource", {}).get("uid") == "${datasource}" for p in dashboard["panels"]
              if p["type"] != "row"))
    check_rules(objs, dashboard)
    check_metric_names(objs, dashboard, sys.argv[1] if len(sys.argv) > 1 else None)
    check_schemas(objs, dashboard)
    print("%d passed, %d failed" % (len(PASSED), len(FAILED)))
    return 1 if FAILED else 0


if __name__ == "__main__":
    sys.exit(main())
