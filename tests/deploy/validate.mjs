// SPDX-License-Identifier: Apache-2.0
// usage: node validate.mjs NODE_MODULES OBJECTS.json DASHBOARD.json
//
// Validates deploy/'s objects with validators built from the published
// schemas, installed from npm into NODE_MODULES by .ci/run (never vendored):
//  - kubernetes-models: Ajv validators generated from the Kubernetes OpenAPI
//    schema (v1 ServiceAccount/Service/ConfigMap, apps/v1 DaemonSet);
//  - @kubernetes-models/prometheus-operator: the same from the Prometheus
//    Operator's CRD schemas (PodMonitor, PrometheusRule);
//  - both packages' TypeScript declarations, generated from the same
//    schemas, through the TypeScript compiler: an object literal typed as
//    the kind gets excess-property checks at every depth, so a field the
//    API server would drop (a typo: hostPid) fails, as kubectl's
//    --validate=strict would;
//  - @grafana/schema: Grafana's published dashboard model (Dashboard,
//    Panel, RowPanel) and each panel type's Options and FieldConfig, the
//    same way.
// One JSON line per check on stdout: {"name", "ok", "why"}.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";

const [modules, objectsFile, dashboardFile] = process.argv.slice(2);
const objects = JSON.parse(fs.readFileSync(objectsFile, "utf8"));
const dashboard = JSON.parse(fs.readFileSync(dashboardFile, "utf8"));
const report = (name, ok, why = "") => console.log(JSON.stringify({ name, ok, why }));

// apiVersion -> the module that has the kind's class and interface
function modulePath(apiVersion) {
  if (apiVersion === "monitoring.coreos.com/v1")
    return "@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1";
  return "kubernetes-models/" + apiVersion;
}
const label = (o) => `${o.kind}/${o.metadata?.name ?? "?"}`;

// 1. Ajv, from the schemas
for (const o of objects) {
  const spec = modulePath(o.apiVersion);
  let mod;
  try {
    const pkgDir = path.join(modules, spec);
    mod = await import(pathToFileURL(path.join(pkgDir, "index.js")).href);
  } catch (e) {
    report(`schema ${label(o)}`, false, `no model for ${o.apiVersion}: ${e.message}`);
    continue;
  }
  const Cls = mod[o.kind];
  if (!Cls) {
    report(`schema ${label(o)}`, false, `${o.apiVersion} has no kind ${o.kind}`);
    continue;
  }
  try {
    new Cls(o).validate();
    report(`schema ${label(o)}`, true);
  } catch (e) {
    const errs = (e.errors || []).map((x) => `${x.instancePath} ${x.message}`).join("; ");
    report(`schema ${label(o)}`, false, errs || e.message);
  }
}

// 2. TypeScript: the objects and the dashboard as typed literals
const require = createRequire(path.join(modules, "noop.js"));
const ts = require("typescript");
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ci-deploy-ts-"));
try {
  fs.symlinkSync(modules, path.join(dir, "node_modules"));
  const imports = [];
  const lines = [];
  const checks = []; // [name, first line, last line] in lines
  // JSON has a string enum's values, not its TypeScript enum: J<T> turns
  // each enum into the union of its values, and keeps the rest as it is
  lines.push(
    "type J<T> = T extends string ? `${T}` : T extends number | boolean | null | undefined ? T :",
    "  T extends Array<infer U> ? Array<J<U>> : T extends object ? { [K in keyof T]: J<T[K]> } : T;");
  const imported = new Map();
  const imp = (spec, name, as) => {
    const key = `${spec}|${name}`;
    if (!imported.has(key)) {
      imported.set(key, as);
      imports.push(`import type { ${name} as ${as} } from "${spec}";`);
    }
    return as;
  };
  const literal = (name, type, value) => {
    const first = lines.join("\n").split("\n").length + 1;
    lines.push(`export const v${checks.length}: J<${type}> = ${JSON.stringify(value, null, 1)};`);
    checks.push([name, first, first + lines[lines.length - 1].split("\n").length - 1]);
  };
  objects.forEach((o, i) => {
    const t = imp(modulePath(o.apiVersion), `I${o.kind}`, `K${i}`);
    literal(`strict ${label(o)}`, t, o);
  });
  const G = "@grafana/schema/dist/esm/raw";
  const D = imp(`${G}/dashboard/x/Dashboard_types.gen`, "Dashboard", "GDashboard");
  literal("grafana Dashboard model", D, dashboard);
  const panelTypes = {
    timeseries: "timeseries/panelcfg/x/TimeSeriesPanelCfg_types.gen",
    "state-timeline": "statetimeline/panelcfg/x/StateTimelinePanelCfg_types.gen",
    table: "table/panelcfg/x/TablePanelCfg_types.gen",
    stat: "stat/panelcfg/x/StatPanelCfg_types.gen",
  };
  const walk = (ps) => ps.forEach((p) => {
    if (p.type === "row") return walk(p.panels || []);
    const cfg = panelTypes[p.type];
    if (!cfg) {
      report(`grafana panel ${p.id} type`, false, `no schema checked for panel type ${p.type}`);
      return;
    }
    const key = p.type.replace(/-/g, "");
    const O = imp(`${G}/composable/${cfg}`, "Options", `O_${key}`);
    const F = imp(`${G}/composable/${cfg}`, "FieldConfig", `F_${key}`);
    literal(`grafana panel ${p.id} (${p.type}) options`, O, p.options || {});
    literal(`grafana panel ${p.id} (${p.type}) fieldConfig.custom`, F, p.fieldConfig?.defaults?.custom || {});
  });
  walk(dashboard.panels || []);
  const shift = imports.length; // the imports come first in the file
  const file = path.join(dir, "deploy.ts");
  fs.writeFileSync(file, imports.concat(lines).join("\n") + "\n");
  const program = ts.createProgram([file], {
    strict: true, noEmit: true, skipLibCheck: true, target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler,
  });
  const diags = ts.getPreEmitDiagnostics(program);
  const byCheck = checks.map(() => []);
  const stray = [];
  for (const d of diags) {
    const msg = ts.flattenDiagnosticMessageText(d.messageText, " ");
    if (!d.file || d.file.fileName !== file) {
      stray.push(msg);
      continue;
    }
    const line = d.file.getLineAndCharacterOfPosition(d.start).line + 1 - shift;
    const i = checks.findIndex(([, a, b]) => line >= a && line <= b);
    (i >= 0 ? byCheck[i] : stray).push(msg.slice(0, 400));
  }
  checks.forEach(([name], i) => report(name, byCheck[i].length === 0, byCheck[i].join(" | ")));
  if (stray.length) report("typescript (declarations)", false, stray.join(" | ").slice(0, 800));
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
