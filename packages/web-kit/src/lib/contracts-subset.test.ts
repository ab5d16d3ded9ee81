import * as contracts from '@aict/contracts';
import * as subset from './contracts-subset';

describe('web-kit contracts subset', () => {
  it('when isAdminOf is asked about sample users, then it answers as @aict/contracts does', () => {
    const users: Array<Parameters<typeof contracts.isAdminOf>[0]> = [
      null,
      { isSuperAdmin: true, workspaceRoles: {} },
      { isSuperAdmin: false, workspaceRoles: { '1': 'admin', '2': 'user' } },
    ];
    for (const user of users) {
      for (const workspaceId of [null, 1, '1', 2, 3]) {
        expect(subset.isAdminOf(user, workspaceId)).toBe(contracts.isAdminOf(user, workspaceId));
      }
    }
  });

  it('when initials are taken of sample names, then they match @aict/contracts', () => {
    for (const name of ['jane doe', 'admin', '  ada  lovelace king ', 'émile zola', '']) {
      expect(subset.initials(name)).toBe(contracts.initials(name));
    }
  });
});
