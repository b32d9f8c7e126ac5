// Replies that say why something was not done: a command the App gave up on (the command, the cause,
// never the error text, which may name hosts, paths or tokens, and how to run it again), and an ignore
// whose config pull request was not written.
import { describe, expect, it } from 'vitest';
import { configChangeText, givenUpReply } from '../../../src/core/commands/index.js';

describe('givenUpReply', () => {
  it('a command that failed with an error each time points to the log, not the error', () => {
    const reply = givenUpReply('/driftback plan', 3, false);
    expect(reply).toContain('driftback could not run `/driftback plan`: it was given up after 3 attempts');
    expect(reply).toContain(
      "because it failed each time with an error (the App's log has it, under this comment's id)",
    );
    expect(reply).toContain('write the command in a new comment');
  });

  it('the command is shown as code: a mention or a backtick in it pings no one and breaks nothing', () => {
    const reply = givenUpReply('/driftback ignore `x` because @team', 1, true);
    expect(reply).toContain('given up after 1 attempt, because the App stopped while running it');
    expect(reply).toContain('``/driftback ignore `x` because @team``');
  });
});

describe('configChangeText', () => {
  it('says why no config pull request was written, and links the one that already has the rule', () => {
    expect(configChangeText({ type: 'exists', number: 57 })).toBe(
      '#57 or `.github/driftback.yml` already has an ignore rule for this: no new rule was proposed.',
    );
    expect(configChangeText({ type: 'exists' })).toBe(
      '`.github/driftback.yml` already has an ignore rule for this: no new rule was proposed.',
    );
    expect(configChangeText({ type: 'whole-objects' })).toContain('An ignore rule covers fields, not a whole object');
    expect(configChangeText({ type: 'failed', reason: '`drift.ignore` is not a list in the file <b>' })).toBe(
      'The ignore rule for `.github/driftback.yml` was not proposed: `drift.ignore` is not a list in the file &lt;b&gt;.',
    );
  });
});
