import fs from "node:fs";
import { contracts } from "./schema-contracts.ts";

for (const [file, content] of Object.entries(contracts())) {
  fs.writeFileSync(file, content);
  console.log("wrote", file);
}
