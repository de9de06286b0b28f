-- Exact, case-insensitive look-ups of nicknames and e-mails (src/db/account-names.ts): lower(column) = lower($1).
-- Expression indexes cannot be written in schema.prisma; Prisma's diff leaves them alone.
CREATE INDEX "accounts_lower_nickname_idx" ON "accounts" (lower("nickname"));
CREATE INDEX "accounts_lower_email_idx" ON "accounts" (lower("email"));
