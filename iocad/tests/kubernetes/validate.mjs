// SPDX-License-Identifier: GPL-2.0
// validate.mjs FILE...: every YAML document of the files against the
// Kubernetes API's OpenAPI schema, as kubernetes-models (npm, the versions
// in package-lock.json; scripts/deps.sh installs them) compiles it: types,
// enums, required fields and formats. One line per document, "ok KIND/NAME"
// or "bad KIND/NAME: errors"; exits 1 if any document is bad or of a kind
// this script does not know. The schema allows fields it does not list,
// so a misspelt field passes here; check.py asserts the ones iocad needs.
import { readFileSync } from "node:fs";
import yaml from "js-yaml";
import * as apps from "kubernetes-models/apps/v1";
import * as core from "kubernetes-models/v1";

const groups = { "apps/v1": apps, v1: core };
let bad = 0;
for (const file of process.argv.slice(2)) {
  for (const doc of yaml.loadAll(readFileSync(file, "utf8"))) {
    if (!doc) continue;
    const what = `${doc.kind}/${doc.metadata?.name}`;
    const Model = groups[doc.apiVersion]?.[doc.kind];
    if (!Model) {
      bad++;
      console.log(`bad ${what}: no schema for apiVersion ${doc.apiVersion} kind ${doc.kind}`);
      continue;
    }
    try {
      new Model(doc).validate();
      console.log(`ok ${what}`);
    } catch (e) {
      bad++;
      console.log(`bad ${what}: ${e.message}`);
    }
  }
}
process.exit(bad ? 1 : 0);
