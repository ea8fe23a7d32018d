#!/usr/bin/env bash
# Validate deploy/kubernetes/*.yaml offline:
#  1. against the Kubernetes OpenAPI JSON schemas (strict: unknown fields are
#     errors) with kubernetes-validate from PyPI, for the oldest and the newest
#     Kubernetes version we claim. The schemas ship inside the package, so this
#     needs no network beyond the package registry that installs it.
#  2. against kinrow's own deployment rules, which no schema knows: readiness on
#     /readyz and liveness on /healthz, non-root, read-only root filesystem, requests and limits, a
#     termination grace that covers preStop + the server's drain period, the
#     Service and HPA actually pointing at the Deployment.
#
# The checker lives in a venv under the repository (.venv-k8s, git-ignored) and
# is installed on first use.
#
# Usage: scripts/validate-k8s.sh [manifest.yaml ...]   (default: deploy/kubernetes/*.yaml)
set -euo pipefail
cd "$(dirname "$0")/.."

VALIDATOR_VERSION=1.37.0
# Oldest and newest Kubernetes versions the manifests are meant for.
K8S_VERSIONS=(1.29.0 1.37.0)
VENV=.venv-k8s

if [ $# -gt 0 ]; then
  manifests=("$@")
else
  manifests=(deploy/kubernetes/*.yaml)
fi

if ! "$VENV/bin/kubernetes-validate" --version 2>/dev/null | grep -qx "$VALIDATOR_VERSION"; then
  echo "installing kubernetes-validate $VALIDATOR_VERSION into $VENV"
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install --quiet --disable-pip-version-check \
    "kubernetes-validate==$VALIDATOR_VERSION"
fi

status=0
for v in "${K8S_VERSIONS[@]}"; do
  echo "schema check (strict) against Kubernetes $v"
  if ! "$VENV/bin/kubernetes-validate" --strict --quiet -k "$v" "${manifests[@]}"; then
    status=1
  fi
done

echo "kinrow policy check"
if ! "$VENV/bin/python" - "${manifests[@]}" <<'PY'; then
import re
import sys

import yaml

docs = []
for path in sys.argv[1:]:
    with open(path) as f:
        docs += [(path, d) for d in yaml.safe_load_all(f) if d]

by_kind = {}
for path, d in docs:
    by_kind.setdefault(d["kind"], []).append((path, d))

problems = []


def need(cond, where, what):
    if not cond:
        problems.append(f"{where}: {what}")


def cores(q):
    q = str(q)
    return int(q[:-1]) / 1000 if q.endswith("m") else float(q)


def matches(selector, labels):
    return all(labels.get(k) == v for k, v in selector.items())


deployments = by_kind.get("Deployment", [])
need(deployments, "manifests", "no Deployment")
for path, dep in deployments:
    name = dep["metadata"]["name"]
    where = f"{path} Deployment/{name}"
    pod = dep["spec"]["template"]["spec"]
    pod_labels = dep["spec"]["template"]["metadata"].get("labels", {})
    need(matches(dep["spec"]["selector"]["matchLabels"], pod_labels), where,
         "selector does not match the pod template's labels")
    psc = pod.get("securityContext", {})
    grace = pod.get("terminationGracePeriodSeconds", 30)
    for c in pod["containers"]:
        cw = f"{where} container {c['name']}"
        csc = c.get("securityContext", {})
        non_root = csc.get("runAsNonRoot", psc.get("runAsNonRoot"))
        uid = csc.get("runAsUser", psc.get("runAsUser"))
        need(non_root is True, cw, "runAsNonRoot is not true")
        need(uid is not None and uid != 0, cw, "runAsUser is not a non-zero uid")
        need(csc.get("readOnlyRootFilesystem") is True, cw, "readOnlyRootFilesystem is not true")
        need(csc.get("allowPrivilegeEscalation") is False, cw, "allowPrivilegeEscalation is not false")
        res = c.get("resources", {})
        for kind in ("requests", "limits"):
            for r in ("cpu", "memory"):
                need(r in res.get(kind, {}), cw, f"no resources.{kind}.{r}")
        ports = {p.get("name"): p["containerPort"] for p in c.get("ports", [])}
        for probe, path in (("readinessProbe", "/readyz"), ("livenessProbe", "/healthz")):
            get = c.get(probe, {}).get("httpGet")
            need(get is not None and get.get("path") == path, cw,
                 f"{probe} is not an HTTP GET of {path}")
            if get:
                need(get.get("port") in ports or get.get("port") in ports.values(), cw,
                     f"{probe} port {get.get('port')!r} is not a container port")
        env = {e["name"]: e.get("value") for e in c.get("env", [])}
        need(env.get("KINROW_ADDR", "").startswith("0.0.0.0:"), cw,
             "KINROW_ADDR does not listen on all interfaces (0.0.0.0:PORT)")
        if "KINROW_ADDR" in env and ports:
            need(int(env["KINROW_ADDR"].rsplit(":", 1)[1]) in ports.values(), cw,
                 "KINROW_ADDR's port is not a container port")
        searches = env.get("KINROW_MAX_CONCURRENT_SEARCHES")
        cpu_limit = res.get("limits", {}).get("cpu")
        if searches and cpu_limit:
            need(int(searches) <= max(1, int(cores(cpu_limit))), cw,
                 f"KINROW_MAX_CONCURRENT_SEARCHES={searches} exceeds the CPU limit {cpu_limit}")
        # SIGTERM comes after the preStop hook; the server then drains for its
        # grace period. The kubelet's deadline must cover both.
        pre = c.get("lifecycle", {}).get("preStop", {})
        pre_s = pre.get("sleep", {}).get("seconds", 0)
        cmd = pre.get("exec", {}).get("command", [])
        if cmd and re.search(r"sleep$", cmd[0]) and len(cmd) > 1:
            pre_s = int(cmd[1])
        drain = int(env.get("KINROW_SHUTDOWN_GRACE_SECS") or 30)
        need(grace >= pre_s + drain, cw,
             f"terminationGracePeriodSeconds {grace} < preStop {pre_s} s + drain {drain} s")

    for spath, svc in by_kind.get("Service", []):
        sel = svc["spec"].get("selector", {})
        if sel and matches(sel, pod_labels):
            for p in svc["spec"]["ports"]:
                tp = p.get("targetPort", p["port"])
                names = {pp.get("name") for c in pod["containers"] for pp in c.get("ports", [])}
                nums = {pp["containerPort"] for c in pod["containers"] for pp in c.get("ports", [])}
                need(tp in names or tp in nums, f"{spath} Service/{svc['metadata']['name']}",
                     f"targetPort {tp!r} is not a port of Deployment/{name}")

services = by_kind.get("Service", [])
need(services, "manifests", "no Service")
for path, svc in services:
    sel = svc["spec"].get("selector", {})
    need(any(matches(sel, d["spec"]["template"]["metadata"].get("labels", {}))
             for _, d in deployments),
         f"{path} Service/{svc['metadata']['name']}", "selector matches no Deployment's pods")

hpas = by_kind.get("HorizontalPodAutoscaler", [])
need(hpas, "manifests", "no HorizontalPodAutoscaler")
for path, hpa in hpas:
    where = f"{path} HorizontalPodAutoscaler/{hpa['metadata']['name']}"
    ref = hpa["spec"]["scaleTargetRef"]
    targets = [d for _, d in deployments
               if ref["kind"] == "Deployment" and d["metadata"]["name"] == ref["name"]]
    need(targets, where, f"scaleTargetRef {ref['kind']}/{ref['name']} is not in the manifests")
    need(hpa["spec"].get("minReplicas", 1) >= 2, where,
         "minReplicas < 2: losing one replica would lose the service")
    need(any(m.get("type") == "Resource" and m["resource"]["name"] == "cpu"
             for m in hpa["spec"].get("metrics", [])), where, "no CPU metric")

for path, pdb in by_kind.get("PodDisruptionBudget", []):
    sel = pdb["spec"]["selector"]["matchLabels"]
    need(any(matches(sel, d["spec"]["template"]["metadata"].get("labels", {}))
             for _, d in deployments),
         f"{path} PodDisruptionBudget/{pdb['metadata']['name']}", "selector matches no pods")

for p in problems:
    print("ERROR", p)
print(f"{len(docs)} resources checked, {len(problems)} policy problems")
sys.exit(1 if problems else 0)
PY
  status=1
fi

if [ "$status" -eq 0 ]; then
  echo "validate-k8s: ${#manifests[@]} manifests OK"
else
  echo "validate-k8s: FAILED"
fi
exit "$status"
