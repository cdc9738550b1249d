-- what a caller may read of a failed attempt: a stable category (provider-rejected, provider-unavailable,
-- provider-unreachable, invalid-recipient); last_error keeps the provider's raw reply for operators only
ALTER TABLE notification ADD COLUMN last_error_reason VARCHAR(32) NULL AFTER last_error;
