// The reply to a command the App gave up on: the command, the general cause (never the error text,
// which may name hosts, paths or tokens), and how to run it again.
import { describe, expect, it } from 'vitest';
import { givenUpReply } from '../../../src/core/commands/index.js';

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
