#!/usr/bin/env python3
"""Offline JSON schemas for kubeconform, built once and cached.

    schemas.py OUT_DIR K8S_SCHEMA_DIR CRD.yaml...

K8S_SCHEMA_DIR is a kubernetes-validate schema folder (e.g. v1.36.0-local-strict). Its files name each other by
absolute ids (`$id: https://kubernetes.io/api/...`, `$ref: /api/_definitions.json#...`), which kubeconform would try
to fetch; the copy in OUT_DIR/k8s/ drops the ids and makes every `$ref` relative to the folder.

Each CRD's openAPIV3Schema becomes OUT_DIR/crds/<group>/<kind>_<version>.json (kubeconform's
`{{.Group}}/{{.ResourceKind}}_{{.ResourceAPIVersion}}.json`), made strict the way the API server prunes: an object
with `properties` and neither `additionalProperties` nor `x-kubernetes-preserve-unknown-fields` allows no other key,
so an unknown field fails here as it would be dropped there.
"""
import json
import os
import sys
from pathlib import Path

import yaml


def convert_k8s(src: Path, out: Path):
    out.mkdir(parents=True, exist_ok=True)
    for f in src.glob("*.json"):
        text = f.read_text()
        text = text.replace('"/api/_definitions.json#', '"_definitions.json#')
        doc = json.loads(text)
        doc.pop("$id", None)
        (out / f.name).write_text(json.dumps(doc))


def strict(node):
    if isinstance(node, list):
        return [strict(n) for n in node]
    if not isinstance(node, dict):
        return node
    node = {k: strict(v) for k, v in node.items()}
    if node.pop("x-kubernetes-int-or-string", False):
        node.pop("type", None)
        node["anyOf"] = [{"type": "integer"}, {"type": "string"}]
    if node.pop("nullable", False) and "type" in node:
        node["type"] = [node["type"], "null"]
    if (
        "properties" in node
        and "additionalProperties" not in node
        and not node.get("x-kubernetes-preserve-unknown-fields")
    ):
        node["additionalProperties"] = False
    return node


def convert_crd(path: Path, out: Path):
    for crd in yaml.safe_load_all(path.read_text()):
        if not crd or crd.get("kind") != "CustomResourceDefinition":
            continue
        group, kind = crd["spec"]["group"], crd["spec"]["names"]["kind"]
        for version in crd["spec"]["versions"]:
            schema = strict(version["schema"]["openAPIV3Schema"])
            props = schema.setdefault("properties", {})
            props["apiVersion"] = {"type": "string", "enum": [f"{group}/{version['name']}"]}
            props["kind"] = {"type": "string", "enum": [kind]}
            props["metadata"] = {"type": "object"}
            schema["required"] = sorted(set(schema.get("required", [])) | {"apiVersion", "kind", "metadata"})
            target = out / group / f"{kind.lower()}_{version['name']}.json"
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(json.dumps(schema))


def main(argv):
    out, k8s_src, crds = Path(argv[0]), Path(argv[1]), [Path(p) for p in argv[2:]]
    tmp = out.with_name(out.name + f".tmp{os.getpid()}")
    convert_k8s(k8s_src, tmp / "k8s")
    for crd in crds:
        convert_crd(crd, tmp / "crds")
    tmp.rename(out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
