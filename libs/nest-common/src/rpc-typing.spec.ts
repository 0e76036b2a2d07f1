// The RPC map's promise: a wrong payload, a wrong use of an answer, or a handler that answers
// something else does not compile. The `@ts-expect-error` lines below are checked by the typecheck
// step (`tsc -p tsconfig.tests.json`): if one of them stopped being an error, the build fails.
import { describe, expect, it } from '@jest/globals';
import { Controller } from '@nestjs/common';
import { PATTERN_METADATA } from '@nestjs/microservices/constants.js';
import { RPC_MAP_COVERS_SUBJECTS, SUBJECTS, type Profile, type RpcResponse } from '@tinkerdesk/contracts';
import { Handles } from './handles.js';
import type { RpcClient } from './rpc-client.js';

/** Compile-time only: never called. */
async function callSites(rpc: RpcClient): Promise<void> {
  const profile = await rpc.send(SUBJECTS.identity.userMe, { userId: '6f1c3a52-1f6e-4c8a-9d3b-6a2f7c1e9b40' });
  const email: string = profile.email;
  void email;
  // @ts-expect-error a Profile has no `token`
  void profile.token;
  // @ts-expect-error identity.user.me takes a userId, not a token
  await rpc.send(SUBJECTS.identity.userMe, { token: 'x' });
  // @ts-expect-error a subject that is not in the map
  await rpc.send('identity.user.nothing', {});
  const jobs = await rpc.send(SUBJECTS.commerce.serviceList, { userId: 'u' });
  // @ts-expect-error the services list is an array of ServiceView, not a number
  const count: number = jobs;
  void count;
}
void callSites;

@Controller()
class TypedHandlers {
  @Handles(SUBJECTS.identity.userMe)
  me(input: { userId: string }): Promise<Profile> {
    return Promise.resolve({ guid: input.userId, name: '', tz: 'UTC', active: true, email: 'a@b.c', verified: false, context: {} });
  }

  // @ts-expect-error identity.user.me answers a Profile, not a string
  @Handles(SUBJECTS.identity.userMe)
  wrongAnswer(_input: { userId: string }): Promise<string> {
    return Promise.resolve('');
  }

  // @ts-expect-error identity.user.me's handler receives { userId }, not { token }
  @Handles(SUBJECTS.identity.userMe)
  wrongInput(input: { token: string }): RpcResponse<typeof SUBJECTS.identity.userMe> {
    return { guid: input.token, name: '', tz: 'UTC', active: true, email: '', verified: false, context: {} };
  }

  @Handles(SUBJECTS.identity.oidcList)
  list(): RpcResponse<typeof SUBJECTS.identity.oidcList> {
    return { providers: [] };
  }
}

describe('the RPC map', () => {
  it('covers every subject of SUBJECTS (a compile-time check that is true when this compiles)', () => {
    expect(RPC_MAP_COVERS_SUBJECTS).toBe(true);
  });

  it('@Handles registers the subject as the Nest message pattern of the method', () => {
    const patterns = (name: keyof TypedHandlers): unknown =>
      Reflect.getMetadata(PATTERN_METADATA, Object.getOwnPropertyDescriptor(TypedHandlers.prototype, name)!.value as object);
    expect(patterns('me')).toEqual([SUBJECTS.identity.userMe]);
    expect(patterns('list')).toEqual([SUBJECTS.identity.oidcList]);
  });
});
