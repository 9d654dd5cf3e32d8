// `node --import ./record-imports.mjs`: every module the process resolves through the ESM loader is
// appended to the file named by FLOWER_IMPORTS_LOG (the hooks run on the loader's own thread).
import { register } from "node:module";

register("./record-imports-hooks.mjs", import.meta.url, { data: { file: process.env.FLOWER_IMPORTS_LOG } });
