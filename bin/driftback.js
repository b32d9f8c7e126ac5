#!/usr/bin/env node
// Entry point of the `driftback` command; the compiled CLI lives in dist/.
import { main } from '../dist/cli/main.js';

process.exitCode = await main(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  cwd: process.cwd(),
});
