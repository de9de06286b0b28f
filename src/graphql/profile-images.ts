// The viewer's profile images (avatar, header, background) uploaded or cleared over GraphQL, and the
// move to another account, through the operations REST calls (updateProfile, moveAccount).
import { updateProfile } from "../domain/accounts/profile.ops.ts";
import { moveAccount } from "../domain/relationships/move.ops.ts";
import { builder } from "./builder.ts";
import { FileScalar } from "./emoji.ts";
import { AccountType } from "./paging.ts";
import { accessOf } from "./access.ts";

const ProfileImage = builder.enumType("ProfileImage", { values: ["avatar", "header", "background"] as const });

builder.mutationFields((t) => ({
  setProfileImage: t.field({
    ...accessOf(updateProfile),
    type: AccountType,
    description: "Uploads the image, or without `file` clears it (the instance default shows instead); answers the viewer's account",
    args: { image: t.arg({ type: ProfileImage, required: true }), file: t.arg({ type: FileScalar }) },
    resolve: async (_r, a, ctx) => {
      const file = a.file ? { buffer: Buffer.from(await a.file.arrayBuffer()), mimetype: a.file.type, originalname: a.file.name, size: a.file.size } : ("" as const);
      return updateProfile(ctx, { [a.image]: file });
    },
  }),
  moveAccount: t.boolean({
    ...accessOf(moveAccount),
    description: "Moves the viewer to another account that lists it among its aliases; local followers follow along",
    args: { password: t.arg.string({ required: true }), targetAccount: t.arg.string({ required: true }) },
    resolve: async (_r, a, ctx) => (await moveAccount(ctx, { password: a.password, target_account: a.targetAccount }), true),
  }),
}));
