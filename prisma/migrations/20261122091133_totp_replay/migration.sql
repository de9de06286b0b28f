-- AlterTable
ALTER TABLE "accounts" ADD COLUMN     "mfa_totp_last_counter" INTEGER;
