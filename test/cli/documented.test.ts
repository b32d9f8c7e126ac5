// docs/cli.md documents every command and every flag: each flag a command's `--help` lists has a row
// (or, for the agent, a mention) on the page, so a new flag cannot be added without its documentation.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';

const PAGE = readFileSync(new URL('../../docs/cli.md', import.meta.url), 'utf8');

/** The page's section of one command: from its heading to the next. */
function section(command: string): string {
  const start = PAGE.indexOf(`## \`driftback ${command}\``);
  const end = PAGE.indexOf('\n## ', start + 1);
  return start < 0 ? '' : PAGE.slice(start, end < 0 ? undefined : end);
}

describe('docs/cli.md', () => {
  it('has a section for every command driftback lists', async () => {
    const { stdout } = await runCli(['--help']);
    const commands = [...stdout.matchAll(/^ {2}([a-z]+) {2,}/gm)].map((match) => match[1]);
    expect(commands).toContain('diff');
    expect(commands.filter((command) => section(command) === '')).toEqual([]);
  });

  for (const command of ['diff', 'plan', 'codify', 'reconcile', 'render', 'snapshot', 'token']) {
    it(`has a row for every flag of driftback ${command} --help`, async () => {
      const { stdout, code } = await runCli([command, '--help']);
      expect(code).toBe(0);
      const flags = [...stdout.matchAll(/^ {2}(--[a-z-]+)/gm)].map((match) => match[1]);
      expect(flags.length).toBeGreaterThan(1);
      const rows = section(command);
      expect(flags.filter((flag) => !new RegExp(`^\\| \`${flag}[ \`]`, 'm').test(rows))).toEqual([]);
    });
  }

  it('names every environment variable of driftback agent --help', async () => {
    const { stdout } = await runCli(['agent', '--help']);
    const variables = [...stdout.matchAll(/^ {2}([A-Z_]+)/gm)].map((match) => match[1]);
    expect(variables).toContain('DRIFTBACK_URL');
    const agentPage = readFileSync(new URL('../../docs/agent.md', import.meta.url), 'utf8');
    expect(variables.filter((variable) => !agentPage.includes(`\`${variable}\``))).toEqual([]);
  });
});
