import { describe, expect, it } from 'vitest';
import { renderChecklist, withChecklist } from '../../../src/core/report/index.js';

const NONE = { merged: false, resumed: false, applied: false, inSync: false };

describe('the emergency checklist', () => {
  it('is replaced in place, the rest of the body kept byte for byte', () => {
    const body = `## Emergency change\n\nbefore\n\n${renderChecklist(NONE)}\n\nafter: the drift report\n`;
    const ticked = withChecklist(body, { ...NONE, merged: true, resumed: true });
    expect(ticked).toBe(body.replace('- [ ] merged', '- [x] merged').replace('- [ ] resumed', '- [x] resumed'));
    expect(withChecklist(ticked!, NONE)).toBe(body);
  });

  it('leaves a body without a checklist alone', () => {
    expect(withChecklist('a pull request someone rewrote', NONE)).toBeUndefined();
  });
});
